package links

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Index is the link index of one workspace. It is safe for concurrent use.
type Index struct {
	root string
	// realRoot is root with its symlinks followed (set once, on first use).
	realOnce sync.Once
	realRoot string

	mu    sync.RWMutex
	files map[string]*File
	// rels is the keys of files, sorted (every listing walks it in order).
	rels []string
	// stems maps a lower-case file name without extension to the files of
	// that name (wiki links name files without folder or extension).
	stems map[string][]string
	// terms maps a lower-case term to the places that define it: files
	// titled or named so and headings of that text.
	terms map[string][]Def
}

// Def is a place that defines a term: a heading (the file's title heading
// for a file named or titled by the term).
type Def struct {
	Rel     string
	Heading Heading
	// Title says the heading is the file's title (or the file is named
	// after the term).
	Title bool
}

// New returns an empty index of the workspace at root (an absolute path).
func New(root string) *Index {
	return &Index{root: filepath.Clean(root), files: map[string]*File{}, stems: map[string][]string{}, terms: map[string][]Def{}}
}

// inside reports whether the existing file at rel, with every symlink on
// its path followed, is still under the root.
func (ix *Index) inside(rel string) bool {
	ix.realOnce.Do(func() {
		ix.realRoot = ix.root
		if r, err := filepath.EvalSymlinks(ix.root); err == nil {
			ix.realRoot = r
		}
	})
	real, err := filepath.EvalSymlinks(ix.Abs(rel))
	if err != nil {
		return false
	}
	r, err := filepath.Rel(ix.realRoot, real)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// Rel returns the slash path of abs relative to the root; ok is false for
// a path outside the root.
func (ix *Index) Rel(abs string) (string, bool) {
	r, err := filepath.Rel(ix.root, filepath.Clean(abs))
	if err != nil {
		return "", false
	}
	r = filepath.ToSlash(r)
	if r == "." || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	return r, true
}

// Abs returns the absolute path of a workspace-relative slash path.
func (ix *Index) Abs(rel string) string { return filepath.Join(ix.root, filepath.FromSlash(rel)) }

// Update (re)indexes one file from its text.
func (ix *Index) Update(rel, text string) *File {
	f := Parse(rel, text)
	ix.mu.Lock()
	if old, had := ix.files[rel]; !had {
		i := sort.SearchStrings(ix.rels, rel)
		ix.rels = append(ix.rels, "")
		copy(ix.rels[i+1:], ix.rels[i:])
		ix.rels[i] = rel
		s := stem(rel)
		ix.stems[s] = append(ix.stems[s], rel)
		sort.Strings(ix.stems[s])
	} else {
		ix.dropTerms(old)
	}
	ix.files[rel] = f
	ix.addTerms(f)
	ix.mu.Unlock()
	return f
}

// fileDefs lists the terms file f defines.
func fileDefs(f *File) map[string]Def {
	out := map[string]Def{}
	var title *Heading
	for i := range f.Headings {
		h := f.Headings[i]
		if title == nil && h.Text == f.Title {
			title = &f.Headings[i]
		}
		k := strings.ToLower(strings.TrimSpace(h.Text))
		if _, ok := out[k]; ok || k == "" {
			continue
		}
		out[k] = Def{Rel: f.Rel, Heading: h, Title: title != nil && title.Line == h.Line}
	}
	if title != nil {
		if s := stem(f.Rel); s != "" {
			if _, ok := out[s]; !ok {
				out[s] = Def{Rel: f.Rel, Heading: *title, Title: true}
			}
		}
	}
	return out
}

func (ix *Index) addTerms(f *File) {
	for k, d := range fileDefs(f) {
		ix.terms[k] = append(ix.terms[k], d)
	}
}

func (ix *Index) dropTerms(f *File) {
	for k := range fileDefs(f) {
		list := ix.terms[k]
		out := list[:0]
		for _, d := range list {
			if d.Rel != f.Rel {
				out = append(out, d)
			}
		}
		if len(out) == 0 {
			delete(ix.terms, k)
		} else {
			ix.terms[k] = out
		}
	}
}

// Defines returns the places that define term (case-insensitive): the
// headings of file from first, then file titles and names, then other
// headings, each group by path.
func (ix *Index) Defines(from, term string) []Def {
	ix.mu.RLock()
	list := append([]Def(nil), ix.terms[strings.ToLower(strings.TrimSpace(term))]...)
	ix.mu.RUnlock()
	rank := func(d Def) int {
		switch {
		case d.Rel == from:
			return 0
		case d.Title:
			return 1
		}
		return 2
	}
	sort.SliceStable(list, func(i, j int) bool {
		ri, rj := rank(list[i]), rank(list[j])
		if ri != rj {
			return ri < rj
		}
		return list[i].Rel < list[j].Rel
	})
	return list
}

// Remove drops one file.
func (ix *Index) Remove(rel string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	old, had := ix.files[rel]
	if !had {
		return
	}
	ix.dropTerms(old)
	delete(ix.files, rel)
	if i := sort.SearchStrings(ix.rels, rel); i < len(ix.rels) && ix.rels[i] == rel {
		ix.rels = append(ix.rels[:i], ix.rels[i+1:]...)
	}
	s := stem(rel)
	list := ix.stems[s]
	for i, r := range list {
		if r == rel {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(ix.stems, s)
	} else {
		ix.stems[s] = list
	}
}

// File returns the indexed file at rel, or nil.
func (ix *Index) File(rel string) *File {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.files[rel]
}

// Files returns every indexed file, sorted by path.
func (ix *Index) Files() []*File {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]*File, len(ix.rels))
	for i, r := range ix.rels {
		out[i] = ix.files[r]
	}
	return out
}

// Len is the number of indexed files.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.files)
}

// FilesWithShared returns every indexed file, sorted by path, with whether its file
// name (without extension, case-insensitive) is shared with another file
// (a wiki link then needs its path).
func (ix *Index) FilesWithShared() ([]*File, []bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]*File, len(ix.rels))
	shared := make([]bool, len(ix.rels))
	for i, r := range ix.rels {
		out[i] = ix.files[r]
		shared[i] = len(ix.stems[stem(r)]) > 1
	}
	return out, shared
}

func stem(rel string) string {
	b := path.Base(rel)
	return strings.ToLower(strings.TrimSuffix(b, path.Ext(b)))
}

// Target is what a link resolves to.
type Target struct {
	// Rel is the file linked to (slash path; the linking file for a
	// same-file anchor). "" when the link leaves the workspace or a wiki
	// name matches no file.
	Rel string
	// Outside marks a relative link that climbs above the workspace root
	// (never followed).
	Outside bool
	// Exists says the file is indexed or, for other files, exists on disk.
	Exists bool
	// Markdown says the target is an indexed Markdown file.
	Markdown bool
	// Heading is the heading the anchor names (nil: no anchor, or none
	// matches).
	Heading *Heading
}

// Resolve says what link l of file from points at.
func (ix *Index) Resolve(from string, l Link) Target {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.resolve(from, l)
}

func (ix *Index) resolve(from string, l Link) Target {
	var t Target
	switch {
	case l.Target == "":
		t.Rel = from
	case l.Kind == Wiki:
		if n := path.Clean(strings.TrimPrefix(strings.TrimSpace(l.Target), "/")); n == ".." || strings.HasPrefix(n, "../") {
			t.Outside = true
			return t
		}
		t.Rel = ix.wikiFile(from, l.Target)
	default:
		p := path.Join(path.Dir(from), l.Target)
		if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
			t.Outside = true
			return t
		}
		t.Rel = p
		if _, ok := ix.files[p]; !ok && path.Ext(p) == "" {
			if _, ok := ix.files[p+".md"]; ok {
				t.Rel = p + ".md"
			}
		}
	}
	if t.Rel == "" {
		return t
	}
	f := ix.files[t.Rel]
	if f != nil {
		t.Exists, t.Markdown = true, true
	} else if l.Kind != Wiki {
		_, err := os.Lstat(ix.Abs(t.Rel))
		t.Exists = err == nil
		if t.Exists && !ix.inside(t.Rel) {
			// A symlink (or a path through one) that leaves the root.
			return Target{Outside: true}
		}
	}
	if f != nil && l.HasAnchor {
		t.Heading = f.heading(l.Anchor)
	}
	return t
}

// wikiFile finds the file a wiki name means: a workspace path without
// extension, else a file name (the one nearest the linking file when
// several share it), else a title.
func (ix *Index) wikiFile(from, name string) string {
	name = strings.TrimPrefix(strings.TrimSpace(name), "/")
	lower := strings.ToLower(name)
	for _, cand := range []string{name, name + ".md", name + ".markdown"} {
		if _, ok := ix.files[cand]; ok {
			return cand
		}
	}
	s := strings.ToLower(strings.TrimSuffix(path.Base(lower), ".md"))
	if list := ix.stems[s]; len(list) > 0 {
		best := ""
		for _, r := range list {
			rl := strings.ToLower(r)
			if strings.Contains(lower, "/") && !strings.HasSuffix(strings.TrimSuffix(rl, path.Ext(rl)), strings.TrimSuffix(lower, ".md")) {
				continue
			}
			if best == "" || closer(from, r, best) {
				best = r
			}
		}
		if best != "" {
			return best
		}
	}
	for r, f := range ix.files {
		if f.Title != "" && strings.EqualFold(f.Title, name) {
			return r
		}
	}
	return ""
}

// closer reports whether a is nearer to from than b (more shared folders,
// then a shorter path, then the smaller path).
func closer(from, a, b string) bool {
	ca, cb := common(from, a), common(from, b)
	if ca != cb {
		return ca > cb
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func common(a, b string) int {
	da, db := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(da) && n < len(db) && da[n] == db[n] {
		n++
	}
	return n
}

// heading finds the heading an anchor names: its exact anchor, else the
// anchor of the text (wiki links often give the heading text).
func (f *File) heading(anchor string) *Heading {
	for i := range f.Headings {
		if f.Headings[i].Anchor == anchor {
			return &f.Headings[i]
		}
	}
	s := Slug(anchor)
	for i := range f.Headings {
		if f.Headings[i].Anchor == s {
			return &f.Headings[i]
		}
	}
	return nil
}

// HeadingAt returns the heading on line ln, or nil.
func (f *File) HeadingAt(ln int) *Heading {
	for i := range f.Headings {
		if f.Headings[i].Line == ln {
			return &f.Headings[i]
		}
	}
	return nil
}

// LinkAt returns the link covering (line, UTF-16 column), or nil.
func (f *File) LinkAt(ln, c int) *Link {
	for i := range f.Links {
		w := f.Links[i].Whole
		if w.Line == ln && c >= w.Start && c <= w.End {
			return &f.Links[i]
		}
	}
	return nil
}

// Ref is one link found by a references query.
type Ref struct {
	Rel  string // the linking file
	Link Link
}

// LinksTo returns the links to file rel, and when anchor is not "" only
// those to that heading anchor, in file order.
func (ix *Index) LinksTo(rel, anchor string) []Ref {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []Ref
	for _, from := range ix.rels {
		for _, l := range ix.files[from].Links {
			if l.Target == "" && from != rel {
				continue
			}
			t := ix.resolve(from, l)
			if t.Rel != rel {
				continue
			}
			if anchor != "" && (t.Heading == nil || t.Heading.Anchor != anchor) {
				continue
			}
			out = append(out, Ref{Rel: from, Link: l})
		}
	}
	return out
}

// Counts returns, for each heading anchor of file rel, how many links
// point at it.
func (ix *Index) Counts(rel string) map[string]int {
	out := map[string]int{}
	for _, r := range ix.LinksTo(rel, "") {
		if r.Link.HasAnchor {
			t := ix.Resolve(r.Rel, r.Link)
			if t.Heading != nil {
				out[t.Heading.Anchor]++
			}
		}
	}
	return out
}

// Problem is a broken link.
type Problem struct {
	Link    Link
	Code    string // CodeBrokenLink, CodeBrokenWiki, CodeBrokenAnchor, CodeOutside
	Message string
	// Missing is the workspace path a "create the file" fix would create
	// ("" when none applies).
	Missing string
}

// Problem codes.
const (
	CodeBrokenLink   = "broken_link"
	CodeBrokenWiki   = "broken_wiki_link"
	CodeBrokenAnchor = "broken_anchor"
	CodeOutside      = "link_outside_workspace"
)

// Problems lists the broken links of file rel.
func (ix *Index) Problems(rel string) []Problem {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	f := ix.files[rel]
	if f == nil {
		return nil
	}
	return ix.problems(rel, f)
}

// ProblemsIn lists the broken links of text as file rel would have them,
// resolved against the index without adding text to it: a file the
// index does not hold (or no longer holds, deleted meanwhile) is checked
// without coming back into the index.
func (ix *Index) ProblemsIn(rel, text string) []Problem {
	f := Parse(rel, text)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.problems(rel, f)
}

// problems resolves the links of f, file rel; ix.mu is held for reading.
func (ix *Index) problems(rel string, f *File) []Problem {
	var out []Problem
	for _, l := range f.Links {
		t := ix.resolve(rel, l)
		if t.Rel == rel && !t.Outside {
			// A link into f itself resolves to f, indexed or not.
			t.Exists, t.Markdown, t.Heading = true, true, nil
			if l.HasAnchor {
				t.Heading = f.heading(l.Anchor)
			}
		}
		switch {
		case t.Outside:
			out = append(out, Problem{Link: l, Code: CodeOutside, Message: "link target " + l.Target + " is outside the workspace"})
		case l.Kind == Wiki && t.Rel == "":
			m := l.Target
			if path.Ext(m) == "" {
				m += ".md"
			}
			if path.Dir(m) == "." {
				m = path.Join(path.Dir(rel), m)
			}
			out = append(out, Problem{Link: l, Code: CodeBrokenWiki, Message: "no file matches the wiki link [[" + l.Target + "]]", Missing: m})
		case !t.Exists:
			out = append(out, Problem{Link: l, Code: CodeBrokenLink, Message: "link target " + l.Target + " does not exist", Missing: t.Rel})
		case l.HasAnchor && t.Markdown && t.Heading == nil && l.Anchor != "":
			out = append(out, Problem{Link: l, Code: CodeBrokenAnchor, Message: "no heading #" + l.Anchor + " in " + t.Rel})
		}
	}
	return out
}

// Linkers returns the files other than rel with at least one link that
// resolves to file rel, sorted by path. Called before rel is removed it
// finds the files whose links are about to break.
func (ix *Index) Linkers(rel string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []string
	for _, from := range ix.rels {
		if from == rel {
			continue
		}
		for _, l := range ix.files[from].Links {
			if l.Target == "" {
				continue // a same-file anchor
			}
			if ix.resolve(from, l).Rel == rel {
				out = append(out, from)
				break
			}
		}
	}
	return out
}

// SameTargets reports whether a and b offer links the same targets: the
// same title and the same heading anchors in the same order. When it is
// false, links from other files to the file may have changed meaning.
func SameTargets(a, b *File) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Title != b.Title || len(a.Headings) != len(b.Headings) {
		return false
	}
	for i := range a.Headings {
		if a.Headings[i].Anchor != b.Headings[i].Anchor {
			return false
		}
	}
	return true
}
