package evaluation

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// grepIndex is the baseline a user gets from grep: every source of the
// knowledge base (the workspace's Markdown files and the built-in plugins'
// plugin.kus.md files, as plugin::<id>) with the set of words it contains.
type grepIndex struct {
	paths []string
	words []map[string]bool
}

// stopWords are left out of the question's words: function words that
// every page contains and that grep users would not type.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from into onto about as is are was were be been
	being do does did done i me my we our you your it its this that these those there here what which who whom whose when where
	why how can could should would will shall may might must have has had not no so than then too very just also any all some
	each one ones them they their he she his her up out off over under again once get got use using`) {
		stopWords[w] = true
	}
}

// words splits text into lowercase runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newGrepIndex(root, wsDir string) (*grepIndex, error) {
	g := &grepIndex{}
	add := func(path string, text []byte) {
		set := map[string]bool{}
		for _, w := range words(string(text)) {
			set[w] = true
		}
		g.paths = append(g.paths, path)
		g.words = append(g.words, set)
	}
	ws := os.DirFS(wsDir)
	err := fs.WalkDir(ws, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(p), ".md") {
			return err
		}
		b, err := fs.ReadFile(ws, p)
		if err != nil {
			return err
		}
		add(p, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	kus, err := filepath.Glob(filepath.Join(root, "plugins", "*", "*", "plugin.kus.md"))
	if err != nil {
		return nil, err
	}
	for _, p := range kus {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		add("plugin::"+filepath.Base(filepath.Dir(p)), b)
	}
	return g, nil
}

// first ranks the sources by how many distinct words of the question (stop
// words left out) they contain, ties broken by path, and returns the best;
// "" when no source contains any of them.
func (g *grepIndex) first(question string) string {
	var qw []string
	seen := map[string]bool{}
	for _, w := range words(question) {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			qw = append(qw, w)
		}
	}
	type hit struct {
		path  string
		count int
	}
	var hits []hit
	for i, set := range g.words {
		n := 0
		for _, w := range qw {
			if set[w] {
				n++
			}
		}
		if n > 0 {
			hits = append(hits, hit{g.paths[i], n})
		}
	}
	if len(hits) == 0 {
		return ""
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].count != hits[j].count {
			return hits[i].count > hits[j].count
		}
		return hits[i].path < hits[j].path
	})
	return hits[0].path
}
