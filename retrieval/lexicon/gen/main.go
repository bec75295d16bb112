package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

const (
	maxSenses    = 24 // most frequent senses read per lemma and part of speech
	maxRelatives = 64 // relatives kept per row, best first
)

// Relation kinds, strongest first; the table stores a relative's strongest.
const (
	kindSyn = iota
	kindDeriv
	kindBroader
)

var kindTag = [...]string{"S", "D", "H"}

type pointer struct {
	sym    string
	offset string
	pos    byte
	src    int // word number in the source synset, 0: the whole synset
	dst    int // word number in the target synset, 0: the whole synset
}

type synset struct {
	words []string
	ptrs  []pointer
}

var posFiles = map[byte]string{'n': "noun", 'v': "verb", 'a': "adj", 'r': "adv"}

// posOrder is the order of the parts of speech in a row's "P:" group.
const posOrder = "nvar"

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "folder holding WordNet's data.* and index.* files")
	out := flag.String("out", "wordnet.tsv.gz", "table to write, in text form (gzipped)")
	bin := flag.String("bin", "wordnet.bin", "table to write, in the compact form the lexicon embeds")
	flag.Parse()
	if err := run(*dict, *out, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dict, out, bin string) error {
	synsets := map[string]*synset{} // pos+offset -> synset
	for pos, name := range posFiles {
		if err := readData(filepath.Join(dict, "data."+name), pos, synsets); err != nil {
			return err
		}
	}
	a := text.English()
	type rel struct {
		kind, rank int
	}
	rows := map[string]map[string]rel{}
	senses := map[string]*[len(posOrder)]int{} // term -> senses per part of speech

	add := func(key, word string, kind, rank int) {
		t, ok := single(a, word)
		if !ok || t == key {
			return
		}
		r := rows[key]
		if r == nil {
			r = map[string]rel{}
			rows[key] = r
		}
		if old, ok := r[t]; ok && (old.kind < kind || old.kind == kind && old.rank <= rank) {
			return
		}
		r[t] = rel{kind, rank}
	}
	for pos, name := range posFiles {
		err := eachLine(filepath.Join(dict, "index."+name), func(f []string) error {
			// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets...
			lemma := f[0]
			key, ok := single(a, lemma)
			if !ok {
				return nil
			}
			pcnt, err := strconv.Atoi(f[3])
			if err != nil {
				return fmt.Errorf("index.%s %q: %w", name, lemma, err)
			}
			i := 4 + pcnt
			if i+2 > len(f) {
				return fmt.Errorf("index.%s %q: short line", name, lemma)
			}
			tagged, _ := strconv.Atoi(f[i+1])
			offsets := f[i+2:]
			if senses[key] == nil {
				senses[key] = new([len(posOrder)]int)
			}
			senses[key][strings.IndexByte(posOrder, pos)] += len(offsets)
			_ = tagged // every sense is read: the knowledge base tells which it uses
			n := min(maxSenses, len(offsets))
			for sense, off := range offsets[:n] {
				ss := synsets[string(pos)+off]
				if ss == nil {
					return fmt.Errorf("index.%s %q: no synset %s", name, lemma, off)
				}
				me := slices.Index(ss.words, lemma) + 1
				for _, w := range ss.words {
					add(key, w, kindSyn, sense)
				}
				for _, p := range ss.ptrs {
					kind := -1
					switch p.sym {
					case "+", "\\", "<":
						if p.src == me && me > 0 {
							kind = kindDeriv
						}
					case "@", "&":
						if p.src == 0 {
							kind = kindBroader
						}
					}
					if kind < 0 {
						continue
					}
					target := synsets[string(p.pos)+p.offset]
					if target == nil {
						continue
					}
					for j, w := range target.words {
						if p.dst == 0 || p.dst == j+1 {
							add(key, w, kind, sense)
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	keys := make([]string, 0, len(senses))
	for k := range senses {
		keys = append(keys, k)
	}

	sort.Strings(keys)
	var bw bytes.Buffer
	for _, k := range keys {
		type tr struct {
			t string
			rel
		}
		var list []tr
		for t, r := range rows[k] {
			list = append(list, tr{t, r})
		}
		sort.Slice(list, func(i, j int) bool {
			x, y := list[i], list[j]
			if x.kind != y.kind {
				return x.kind < y.kind
			}
			if x.rank != y.rank {
				return x.rank < y.rank
			}
			return x.t < y.t
		})
		if len(list) > maxRelatives {
			list = list[:maxRelatives]
		}
		bw.WriteString(k)
		kind := -1
		for _, e := range list {
			if e.kind != kind {
				kind = e.kind
				bw.WriteString("\t" + kindTag[kind] + ":")
			} else {
				bw.WriteByte(' ')
			}
			bw.WriteString(e.t)
		}
		bw.WriteString("\tP:")
		sep := ""
		for i, n := range senses[k] {
			if n > 0 {
				fmt.Fprintf(&bw, "%s%c%d", sep, posOrder[i], n)
				sep = " "
			}
		}
		bw.WriteByte('\n')
	}
	if err := writeText(out, bw.Bytes()); err != nil {
		return err
	}
	var compact bytes.Buffer
	if err := lexicon.Compile(bytes.NewReader(bw.Bytes()), &compact); err != nil {
		return err
	}
	return os.WriteFile(bin, compact.Bytes(), 0o644)
}

// writeText writes the text form of the table, gzipped.
func writeText(path string, table []byte) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(fh, gzip.BestCompression)
	if err != nil {
		fh.Close()
		return err
	}
	if _, err := zw.Write(table); err != nil {
		fh.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// single returns the one term the analyzer makes of a WordNet lemma
// (underscores are spaces), or false for a phrase, a stop word or a lemma
// with digits or other marks.
func single(a *text.Analyzer, lemma string) (string, bool) {
	if i := strings.IndexByte(lemma, '('); i >= 0 { // adjective markers: "galore(ip)"
		lemma = lemma[:i]
	}
	for _, r := range lemma {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && r != '-' {
			return "", false
		}
	}
	var terms []string
	a.Each(strings.ToLower(lemma), func(t text.Token) {
		if !t.Part {
			terms = append(terms, t.Term)
		}
	})
	if len(terms) != 1 {
		return "", false
	}
	return terms[0], true
}

func readData(path string, pos byte, synsets map[string]*synset) error {
	return eachLine(path, func(f []string) error {
		// offset lex_filenum ss_type w_cnt word lex_id ... p_cnt [ptr ...] ...
		if len(f) < 4 {
			return fmt.Errorf("%s: short line %q", path, strings.Join(f, " "))
		}
		wcnt, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil {
			return fmt.Errorf("%s %s: w_cnt: %w", path, f[0], err)
		}
		ss := &synset{}
		i := 4
		for range wcnt {
			w := f[i]
			if j := strings.IndexByte(w, '('); j >= 0 {
				w = w[:j]
			}
			ss.words = append(ss.words, strings.ToLower(w))
			i += 2
		}
		pcnt, err := strconv.Atoi(f[i])
		if err != nil {
			return fmt.Errorf("%s %s: p_cnt: %w", path, f[0], err)
		}
		i++
		for range pcnt {
			st, err := strconv.ParseUint(f[i+3], 16, 16)
			if err != nil {
				return fmt.Errorf("%s %s: pointer: %w", path, f[0], err)
			}
			p := f[i+2][0]
			if p == 's' {
				p = 'a'
			}
			ss.ptrs = append(ss.ptrs, pointer{sym: f[i], offset: f[i+1], pos: p, src: int(st >> 8), dst: int(st & 0xff)})
			i += 4
		}
		synsets[string(pos)+f[0]] = ss
		return nil
	})
}

// eachLine calls fn with the space-separated fields of every line of a
// WordNet file, skipping the licence header (lines starting with a space)
// and the gloss after " | ".
func eachLine(path string, fn func([]string) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		if err := fn(strings.Fields(line)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
