package text

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"only stopwords", "The and of it is", nil},
		{"stemming", "Running runners ran easily", []string{"run", "runner", "ran", "easili"}},
		{"punctuation", "Hello, world! (tests)", []string{"hello", "world", "test"}},
		{"hyphenated name", "enable kb-fast now", []string{"enabl", "kb-fast", "kb", "fast", "now"}},
		{"architecture", "x86-64 builds", []string{"x86-64", "x86", "x", "86", "64", "build"}},
		{"letter digit runs", "IL6 and h1n1", []string{"il6", "il", "6", "h1n1", "h", "1", "n", "1"}},
		{"version not split", "v1.2", []string{"v1.2"}},
		{"greek symbol in compound", "TNF-α and NF-κB", []string{"tnf-alpha", "tnf", "alpha", "nf-kappab", "nf", "kappab"}},
		{"lone greek letter", "β cells", []string{"beta", "cell"}},
		{"greek word stays greek", "λόγος", []string{"λόγος"}},
		{"long flag", "use --directory DIR", []string{"use", "--directory", "directori", "dir"}},
		{"short flag", "ls -l", []string{"ls", "-l", "l"}},
		{"minus is not a flag", "a - b", []string{"b"}},
		{"dash inside word only", "word-", []string{"word"}},
		{"underscore", "snake_case_name", []string{"snake_case_name", "snake", "case", "name"}},
		{"decimal", "pi is 3.14.", []string{"pi", "3.14"}},
		{"mnemonic letters", "[e]dit and e[x]ecute in [k]ibibytes", []string{"edit", "execut", "kibibyt"}},
		{"links, checkboxes and citations stay", "[docs](url) - [x] done [1] a[i]", []string{"doc", "url", "x", "done", "1", "ai"}},
		{"version", "v1.2.3 released", []string{"v1.2.3", "releas"}},
		{"thousands", "1,000 cells, 2,5 mg", []string{"1000", "cell", "2", "5", "mg"}},
		{"sentence dot", "end.Next", []string{"end", "next"}},
		{"possessive", "the patient's blood", []string{"patient", "blood"}},
		{"curly possessive", "the patient\u2019s blood", []string{"patient", "blood"}},
		{"contraction stopword", "don't stop", []string{"stop"}},
		{"stopword part dropped", "state-of-the-art", []string{"state-of-the-art", "state", "art"}},
		{"numbers kept", "1 in 5 million", []string{"1", "5", "million"}},
		{"unicode lowercase", "ÉCOLE Straße", []string{"école", "straße"}},
		{"greek", "Αλφα βήτα", []string{"αλφα", "βήτα"}},
		{"cyrillic", "Привет мир", []string{"привет", "мир"}},
		{"han per char", "中文abc", []string{"中", "文", "abc"}},
		{"kana", "カタ", []string{"カ", "タ"}},
		{"marks kept", "naïve cafe\u0301", []string{"naïve", "cafe\u0301"}},
		{"digits unicode", "٣٤ items", []string{"٣٤", "item"}},
		{"too long dropped", strings.Repeat("x", 70) + " ok", []string{"ok"}},
		{"email-ish", "bob@example.com", []string{"bob", "exampl", "com"}},
		{"il-6", "IL-6 increases TNF-alpha", []string{"il-6", "il", "6", "increas", "tnf-alpha", "tnf", "alpha"}},
		{"micro sign kept", "5 µg", []string{"5", "µg"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Terms(tc.in))
		})
	}
}

func TestPositions(t *testing.T) {
	var got []Token
	English().Each("the kb-fast plugin", func(tok Token) {
		assert.NotZero(t, tok.ID, tok.Term)
		tok.ID = 0
		got = append(got, tok)
	})
	want := []Token{
		{Term: "kb-fast", Pos: 0},
		{Term: "kb", Pos: 0, Part: true},
		{Term: "fast", Pos: 0, Part: true},
		{Term: "plugin", Pos: 1},
	}
	assert.Equal(t, want, got)
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   string
		want []string
	}{
		{"no stem no stop", Options{}, "The Running kb-fast", []string{"the", "running", "kb-fast"}},
		{"short stop list keeps 'which'", Options{Stopwords: ShortStopwords(), Stem: true}, "which the cells", []string{"which", "cell"}},
		{"parts only with Parts", Options{Parts: true}, "a-b", []string{"a-b", "a", "b"}},
		{"max len", Options{MaxTokenLen: 3}, "abcd abc", []string{"abc"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, New(tc.opts).Append(nil, tc.in))
		})
	}
}

func TestConcurrentUse(t *testing.T) {
	a := New(DefaultOptions())
	done := make(chan []string, 4)
	for g := 0; g < 4; g++ {
		go func() { done <- a.Append(nil, "Analyzers analyze analyzed analyses concurrently") }()
	}
	first := <-done
	for g := 1; g < 4; g++ {
		require.Equal(t, first, <-done)
	}
}

func TestNoAllocsWhenCached(t *testing.T) {
	a := New(DefaultOptions())
	s := "Microstructural development of human newborn cerebral white matter"
	a.Each(s, func(Token) {})
	n := testing.AllocsPerRun(100, func() { a.Each(s, func(Token) {}) })
	assert.Zero(t, n)
}

func FuzzEach(f *testing.F) {
	for _, s := range []string{"", "kb-fast x86-64 --directory", "1,000.5", "中文 текст", "a'b'c", "--", "-a-", "\xff\xfe", "3.14.15", "'s"} {
		f.Add(s)
	}
	a := English()
	f.Fuzz(func(t *testing.T, s string) {
		last := -1
		a.Each(s, func(tok Token) {
			if tok.Term == "" {
				t.Fatalf("empty term from %q", s)
			}
			if len(tok.Term) > 64*2 {
				t.Fatalf("term too long from %q: %q", s, tok.Term)
			}
			if !utf8.ValidString(tok.Term) && utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 term %q from %q", tok.Term, s)
			}
			if tok.Pos < last || (tok.Part && tok.Pos != last) {
				t.Fatalf("bad position %d after %d from %q", tok.Pos, last, s)
			}
			last = tok.Pos
		})
		// Analysing the analysed text must be stable for stopword-free output.
		_ = a.Append(nil, strings.Join(a.Append(nil, s), " "))
	})
}

var benchText = strings.Repeat("Alterations of the architecture of cerebral white matter in the developing human brain "+
	"can affect cortical development and result in functional disabilities. A line scan diffusion-weighted "+
	"magnetic resonance imaging (MRI) sequence with diffusion tensor analysis was applied to measure the "+
	"apparent diffusion coefficient, to calculate relative anisotropy, and IL-6 levels of 1,000 x86-64 cells. ", 8)

func BenchmarkEach(b *testing.B) {
	a := English()
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		a.Each(benchText, func(Token) {})
	}
}
