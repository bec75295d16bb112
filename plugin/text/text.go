// Package text is the text analysis shared by mrpvm plugins: a Unicode-aware
// tokenizer with lowercasing, English stop words and Snowball English
// stemming. Identifiers that a technical reader searches for as a whole —
// numbers (3.14, 1,000, v1.2.3), hyphenated or underscored names (kb-fast,
// x86-64, snake_case) and command-line flags (--directory) — are kept intact
// as one token; their parts are emitted too (Options.Parts) so that a query
// for "fast" still finds "kb-fast".
//
// Scripts written without spaces between words (Han, Hiragana, Katakana,
// Thai, Lao, Khmer, Myanmar) are split into one token per character.
//
// An Analyzer is safe for concurrent use. It caches stems, so repeated words
// cost neither a stemmer call nor an allocation, and numbers its terms
// (Token.ID).
package text

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Token is one term produced by an Analyzer.
type Token struct {
	// Term is the normalised term: lowercased, stemmed when it is a plain
	// Latin word, verbatim (lowercased) when it is a compound or a number.
	Term string
	// Pos counts the token groups before this one: a compound and its parts
	// share one position. Stop words do not take a position.
	Pos int
	// Part is true for a part of a compound emitted after the compound.
	Part bool
	// ID numbers Term within the Analyzer that produced it, from 1, so
	// that callers can count terms in slices instead of maps: every token
	// of one Analyzer with a given Term carries the same ID. ID is 0 for
	// the terms first seen after the analyzer numbered maxTerms of them
	// (callers then fall back on Term).
	ID uint32
}

// Options configure an Analyzer.
type Options struct {
	// Stopwords are dropped (compared after lowercasing, before stemming).
	// Nil keeps every word.
	Stopwords map[string]struct{}
	// Stem applies Snowball English stemming to plain ASCII-letter words.
	Stem bool
	// Parts emits the parts of hyphenated/underscored compounds and flags
	// after the compound itself.
	Parts bool
	// MaxTokenLen drops longer tokens (in bytes, after lowercasing); 0 means 64.
	MaxTokenLen int
	// Greek spells Greek letters used as symbols (a lone letter, or letters
	// inside a word that also has other characters: TNF-α, NF-κB) by their
	// English names, as technical text often does; Greek words stay Greek.
	Greek bool
}

// DefaultOptions are the options of the English analyzer: Snowball stop
// words, stemming, compound parts, Greek letter names, tokens up to 64 bytes.
func DefaultOptions() Options {
	return Options{Stopwords: EnglishStopwords(), Stem: true, Parts: true, MaxTokenLen: 64, Greek: true}
}

// Analyzer turns text into terms.
type Analyzer struct {
	opts Options

	// The term cache maps a lowercased word to its term and the term's id
	// (term "" for a stop word): one lookup per word. Reads go lock-free to
	// the immutable map in ro; new entries collect in dirty and are
	// promoted into a fresh ro map in batches.
	ro    atomic.Pointer[map[string]entry]
	mu    sync.Mutex
	dirty map[string]entry
	size  int
	ids   map[string]uint32 // term -> ID, under mu

	fronts sync.Pool // of *front, one per running Each
}

// entry is a cached word: its term ("" for a stop word) and the term's ID.
type entry struct {
	term string
	id   uint32
}

// maxCache bounds the stem cache; past it, words are stemmed on every call.
const maxCache = 1 << 17

// maxTerms bounds the numbered terms; later new terms get ID 0.
const maxTerms = 1 << 18

// New returns an Analyzer with the given options.
func New(opts Options) *Analyzer {
	if opts.MaxTokenLen <= 0 {
		opts.MaxTokenLen = 64
	}
	a := &Analyzer{opts: opts, dirty: make(map[string]entry), ids: make(map[string]uint32)}
	a.ro.Store(&map[string]entry{})
	a.fronts.New = func() any { return new(front) }
	return a
}

var (
	englishOnce sync.Once
	englishA    *Analyzer
)

// English returns the shared analyzer built with DefaultOptions.
func English() *Analyzer {
	englishOnce.Do(func() { englishA = New(DefaultOptions()) })
	return englishA
}

// Terms returns the terms of s under the English analyzer.
func Terms(s string) []string { return English().Append(nil, s) }

// Append appends the terms of s to dst and returns the extended slice.
func (a *Analyzer) Append(dst []string, s string) []string {
	a.Each(s, func(t Token) { dst = append(dst, t.Term) })
	return dst
}

// Each calls fn for every token of s, in text order.
func (a *Analyzer) Each(s string, fn func(Token)) {
	if strings.IndexByte(s, '[') >= 0 {
		s = glueMnemonics(s)
	}
	f, _ := a.fronts.Get().(*front)
	if f == nil {
		f = new(front)
	}
	defer a.fronts.Put(f)
	var arr [96]byte
	pos := 0
	i := 0
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isScriptio(r) {
			n := utf8.EncodeRune(arr[:], unicode.ToLower(r))
			e := a.intern(arr[:n])
			fn(Token{Term: e.term, Pos: pos, ID: e.id})
			pos++
			i += size
			continue
		}
		start := i
		if !isWordRune(r) {
			if !(r == '-' && flagStart(s, i)) {
				i += size
				continue
			}
			// A command-line flag: one or two dashes right before a letter.
			i++
			if s[i] == '-' {
				i++
			}
		}
		var end int
		if start == i {
			// Scan the ASCII letters and digits that open the word, keyed
			// for the front; the rest of the word, if any, as scanWord does.
			j, k0, k1, kind := scanASCII(s, i)
			end = j
			if j < len(s) && (s[j] >= utf8.RuneSelf || connector[s[j]]) {
				var prev rune
				if j > i {
					prev = rune(s[j-1])
				}
				end = scanWordFrom(s, j, prev)
			}
			if n := j - i; end == j && (kind == asciiLetter || kind == asciiDigit) && n <= frontKey && n <= a.opts.MaxTokenLen {
				if e := a.plain(f, k0, k1, n); e.term != "" {
					fn(Token{Term: e.term, Pos: pos, ID: e.id})
					pos++
				}
				i = end
				continue
			}
		} else {
			end = scanWord(s, i)
		}
		if a.emitWord(arr[:0], s[start:end], pos, fn) {
			pos++
		}
		i = end
	}
}

// glueMnemonics removes the brackets of mnemonic letters inside a word, as
// reference pages write them ("[e]dit", "e[x]ecute", "[k]ibibyte"): one to
// three ASCII letters in brackets touching a letter on either side. Links
// ("[text](url)"), checkboxes ("[x] done") and citations ("[1]") stay.
func glueMnemonics(s string) string {
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	var b []byte
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(s) && j-i <= 4 && isLetter(s[j]) {
			j++
		}
		if j >= len(s) || s[j] != ']' || j == i+1 || j-i > 4 {
			continue
		}
		left := i > 0 && isLetter(s[i-1])
		right := j+1 < len(s) && isLetter(s[j+1])
		if !left && !right {
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(s))
		}
		b = append(b, s[last:i]...)
		b = append(b, s[i+1:j]...)
		last = j + 1
		i = j
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// flagStart reports whether the dash at s[i] opens a flag such as -v or
// --directory: at the start of the text or after a space or an opening
// bracket or quote, one or two dashes followed by a letter.
func flagStart(s string, i int) bool {
	if i > 0 {
		p, _ := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsSpace(p) && !strings.ContainsRune("([{<\"'`=", p) {
			return false
		}
	}
	j := i + 1
	if j < len(s) && s[j] == '-' {
		j++
	}
	if j >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	return unicode.IsLetter(r)
}

// scanWord returns the end of the word starting at s[i] (a word rune).
// Connectors join word runes: '-' and '_' always, '\” and '’' between
// letters, '.' between digits, ',' before a group of exactly three digits
// that follows a digit.
func scanWord(s string, i int) int { return scanWordFrom(s, i, 0) }

// scanWordFrom is scanWord resumed at s[i] inside a word whose last rune
// is prev (0 at the start of the word).
func scanWordFrom(s string, i int, prev rune) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf && asciiWord[c] {
			prev = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isWordRune(r) {
			prev = r
			i += size
			continue
		}
		if prev == 0 || i+size >= len(s) {
			break
		}
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		if !isWordRune(next) {
			break
		}
		ok := false
		switch r {
		case '-', '_':
			ok = true
		case '\'', '\u2019':
			ok = unicode.IsLetter(prev) && unicode.IsLetter(next)
		case '.':
			ok = unicode.IsDigit(prev) && unicode.IsDigit(next)
		case ',':
			ok = unicode.IsDigit(prev) && threeDigits(s[i+size:])
		}
		if !ok {
			break
		}
		prev = 0
		i += size
	}
	return i
}

// threeDigits reports whether s starts with exactly three ASCII digits.
func threeDigits(s string) bool {
	if len(s) < 3 {
		return false
	}
	for k := 0; k < 3; k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return len(s) == 3 || s[3] < '0' || s[3] > '9'
}

// emitWord lowercases and normalises one raw word and emits it (and its
// parts). It reports whether anything was emitted.
func (a *Analyzer) emitWord(buf []byte, raw string, pos int, fn func(Token)) bool {
	compound := false
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			case c == '-' || c == '_':
				compound = true
			case c == ',':
				i++
				continue // a digit-group separator: 1,000 -> 1000
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(raw[i:])
		i += size
		r = unicode.ToLower(r)
		if r == '\u2019' {
			r = '\''
		}
		if name := greekName(r); name != "" && a.opts.Greek && (len(raw) == size || mixedGreek(raw)) {
			buf = append(buf, name...)
			continue
		}
		buf = utf8.AppendRune(buf, r)
	}
	// Drop a possessive: patient's -> patient.
	if n := len(buf); n > 2 && buf[n-2] == '\'' && buf[n-1] == 's' {
		buf = buf[:n-2]
	}
	if !compound {
		emitted := a.emitPlain(buf, pos, false, fn)
		if a.opts.Parts {
			emitted = a.emitAlnumParts(buf, pos, emitted, fn) || emitted
		}
		return emitted
	}
	emitted := false
	if len(buf) <= a.opts.MaxTokenLen {
		e := a.intern(buf)
		fn(Token{Term: e.term, Pos: pos, ID: e.id})
		emitted = true
	}
	if !a.opts.Parts {
		return emitted
	}
	for len(buf) > 0 {
		k := 0
		for k < len(buf) && buf[k] != '-' && buf[k] != '_' {
			k++
		}
		if k > 0 && a.emitPlain(buf[:k], pos, emitted, fn) {
			emitted = true
		}
		if k > 0 && a.emitAlnumParts(buf[:k], pos, emitted, fn) {
			emitted = true
		}
		if k < len(buf) {
			k++
		}
		buf = buf[k:]
	}
	return emitted
}

// emitAlnumParts emits the letter and digit runs of a word that mixes
// ASCII letters and digits (il6 -> il, 6; h1n1 -> h, 1, n, 1), so that
// "IL6" and "IL-6" share terms. Words with other characters are left alone.
func (a *Analyzer) emitAlnumParts(w []byte, pos int, emitted bool, fn func(Token)) bool {
	letters, digits := false, false
	for _, c := range w {
		switch {
		case c >= 'a' && c <= 'z':
			letters = true
		case c >= '0' && c <= '9':
			digits = true
		default:
			return false
		}
	}
	if !letters || !digits {
		return false
	}
	any := false
	for start := 0; start < len(w); {
		end := start + 1
		digit := w[start] <= '9'
		for end < len(w) && (w[end] <= '9') == digit {
			end++
		}
		if a.emitPlain(w[start:end], pos, emitted || any, fn) {
			any = true
		}
		start = end
	}
	return any
}

// emitPlain emits one lowercased word that holds no compound connector,
// unless it is a stop word.
func (a *Analyzer) emitPlain(w []byte, pos int, part bool, fn func(Token)) bool {
	if len(w) == 0 || len(w) > a.opts.MaxTokenLen {
		return false
	}
	e := a.lookup(w)
	if e.term == "" {
		return false
	}
	fn(Token{Term: e.term, Pos: pos, Part: part, ID: e.id})
	return true
}

// lookup returns the entry of a plain word, from the term cache or computed.
func (a *Analyzer) lookup(w []byte) entry {
	if e, ok := (*a.ro.Load())[string(w)]; ok {
		return e
	}
	return a.miss(w)
}

// miss computes and caches the term of a plain word: "" for a stop word,
// else its stem.
func (a *Analyzer) miss(w []byte) entry {
	if e, ok := a.lookupDirty(w); ok {
		return e
	}
	key := string(w)
	t := key
	if _, stop := a.opts.Stopwords[key]; stop {
		t = ""
	} else if a.opts.Stem && asciiLetters(w) {
		t = english.Stem(key, true)
	}
	return a.store(key, t)
}

// intern returns a compound or a character as a term, sharing one copy
// per distinct value. Compounds are never stop words.
func (a *Analyzer) intern(w []byte) entry {
	e, ok := (*a.ro.Load())[string(w)]
	if !ok {
		e, ok = a.lookupDirty(w)
	}
	if ok && e.term != "" {
		return e
	}
	t := string(w)
	if !ok {
		return a.store(t, t)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return entry{term: t, id: a.termID(t)}
}

func (a *Analyzer) lookupDirty(w []byte) (entry, bool) {
	a.mu.Lock()
	e, ok := a.dirty[string(w)]
	a.mu.Unlock()
	return e, ok
}

// termID returns the ID of term t ("" has none), numbering it if there is
// room. The caller holds a.mu.
func (a *Analyzer) termID(t string) uint32 {
	if t == "" {
		return 0
	}
	id, ok := a.ids[t]
	if !ok && len(a.ids) < maxTerms {
		id = uint32(len(a.ids) + 1)
		a.ids[t] = id
	}
	return id
}

// store numbers term t and caches it as the term of word key; the dirty
// entries are promoted once they number a quarter of the read map (so
// copying costs O(1) per entry, amortised).
func (a *Analyzer) store(key, t string) entry {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.dirty[key]; ok {
		return e
	}
	e := entry{term: t, id: a.termID(t)}
	if a.size >= maxCache {
		return e
	}
	a.dirty[key] = e
	a.size++
	ro := *a.ro.Load()
	if len(a.dirty) < 64+len(ro)/4 {
		return e
	}
	m := make(map[string]entry, len(ro)+len(a.dirty))
	for k, v := range ro {
		m[k] = v
	}
	for k, v := range a.dirty {
		m[k] = v
	}
	a.ro.Store(&m)
	a.dirty = make(map[string]entry)
	return e
}

func asciiLetters(w []byte) bool {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

// isWordRune reports whether r belongs to a word of a space-separated script.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) && !isScriptio(r)
}

// scriptio holds the scripts written without spaces between words.
var scriptio = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// isScriptio reports whether r is a letter of a script without word spaces.
func isScriptio(r rune) bool {
	if r < 0x1000 {
		return r >= 0x0E00 && r <= 0x0EFF // Thai, Lao
	}
	return unicode.IsOneOf(scriptio, r) && (unicode.IsLetter(r) || unicode.IsMark(r))
}

// greekNames spells the lowercase Greek letters.
var greekNames = [...]string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
	"iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau",
	"upsilon", "phi", "chi", "psi", "omega"}

// greekName returns the name of a lowercase Greek letter (α..ω, with final
// sigma), or "".
func greekName(r rune) string {
	switch {
	case r >= 'α' && r <= 'ω':
		return greekNames[r-'α']
	}
	return ""
}

// mixedGreek reports whether a word holds Greek letters together with
// non-Greek letters or digits.
func mixedGreek(raw string) bool {
	greek, other := false, false
	for _, r := range raw {
		switch {
		case unicode.Is(unicode.Greek, r):
			greek = true
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			other = true
		}
	}
	return greek && other
}
