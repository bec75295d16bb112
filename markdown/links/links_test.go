package links

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestParsePositionsCRLFBOMUTF16(t *testing.T) {
	text := "\uFEFF# Tïtle 😀\r\n\r\nSee [😀 x](other.md#Part-Two) and [[other#Part Two|alias]].\r\n"
	f := Parse("a.md", text)
	if f.Title != "Tïtle 😀" {
		t.Fatalf("title %q", f.Title)
	}
	if h := f.Headings[0]; h.Span != (Span{0, 2, 10}) || h.Anchor != "tïtle-" {
		t.Errorf("heading %+v", h)
	}
	if len(f.Links) != 2 {
		t.Fatalf("links %+v", f.Links)
	}
	// "See [😀 x](": '[' at 4, 😀 takes two UTF-16 units, so '(' at 10.
	if l := f.Links[0]; l.Kind != Inline || l.TargetSpan != (Span{2, 11, 19}) || l.Anchor != "Part-Two" || l.AnchorSpan != (Span{2, 20, 28}) {
		t.Errorf("inline %+v", l)
	}
	if l := f.Links[1]; l.Kind != Wiki || l.Target != "other" || l.Anchor != "Part Two" || l.Alias != "alias" {
		t.Errorf("wiki %+v", l)
	}
}

func TestCodeIsNotLinks(t *testing.T) {
	f := Parse("a.md", "```\n[[x]] [a](b.md)\n```\n`[[y]]` [[z]]\n    [c](d.md)\n")
	if len(f.Links) != 1 || f.Links[0].Target != "z" {
		t.Fatalf("links %+v", f.Links)
	}
}

func index(files map[string]string) *Index {
	ix := New("/ws")
	for k, v := range files {
		ix.Update(k, v)
	}
	return ix
}

func TestResolveAndProblems(t *testing.T) {
	ix := index(map[string]string{
		"a.md":     "# A\n\n## Part Two\n\n[b](sub/b.md#intro) [x](../../etc/passwd) [[b]] [[nope]] [y](sub/b.md#missing) [z](#part-two) [[a]] [l](a.md)\n",
		"sub/b.md": "# Intro\n\n[back](../a.md#part-two) [[a#Part Two]]\n",
	})
	ps := ix.Problems("a.md")
	var codes []string
	for _, p := range ps {
		codes = append(codes, p.Code)
	}
	if got := strings.Join(codes, ","); got != "link_outside_workspace,broken_wiki_link,broken_anchor" {
		t.Fatalf("problems %s", got)
	}
	refs := ix.LinksTo("a.md", "part-two")
	if len(refs) != 3 {
		t.Fatalf("refs to #part-two: %+v", refs)
	}
	if n := len(ix.LinksTo("a.md", "")); n != 5 {
		t.Fatalf("refs to a.md: %d", n)
	}
}

func TestRenameHeading(t *testing.T) {
	ix := index(map[string]string{
		"a.md":     "# A\n\n## Part Two\n\n## Other\n\n[z](#part-two)\n",
		"sub/b.md": "[back](../a.md#part-two) [[a#Part Two]] [[a#part-two|x]]\n",
	})
	if _, err := ix.RenameHeading("a.md", 2, "  "); !errors.Is(err, ErrEmptyName) {
		t.Fatalf("empty: %v", err)
	}
	if _, err := ix.RenameHeading("a.md", 2, "other"); !errors.Is(err, ErrDuplicateName) {
		t.Fatalf("duplicate: %v", err)
	}
	ed, err := ix.RenameHeading("a.md", 2, "Part 2")
	if err != nil {
		t.Fatal(err)
	}
	if s := editsText(ed); s != "a.md:Part 2 a.md:part-2 sub/b.md:part-2 sub/b.md:Part 2 sub/b.md:part-2" {
		t.Fatalf("edits %s", s)
	}
}

func TestRenameFiles(t *testing.T) {
	ix := index(map[string]string{
		"a.md":     "[b](sub/b.md) [[b]] [[sub/b|B]]\n",
		"sub/b.md": "[a](../a.md) [c](c.md)\n",
		"sub/c.md": "x\n",
	})
	ed := ix.RenameFiles([]FileMove{{From: "sub/b.md", To: "other/bee.md"}})
	if s := editsText(ed); s != "a.md:other/bee.md a.md:bee a.md:other/bee sub/b.md:../sub/c.md" {
		t.Fatalf("edits %s", s)
	}
}

func TestLinkersAndSameTargets(t *testing.T) {
	ix := New(t.TempDir())
	ix.Update("a.md", "# A\n\n## Part\n\n[self](#part) [b](b.md)\n")
	ix.Update("b.md", "# B\n\n[[a#Part]]\n")
	ix.Update("sub/c.md", "# C\n\n[a](../a.md#part) [out](../../a.md)\n")
	ix.Update("d.md", "# D\n\nno links\n")
	if got := strings.Join(ix.Linkers("a.md"), " "); got != "b.md sub/c.md" {
		t.Errorf("linkers of a.md: %s", got)
	}
	if got := strings.Join(ix.Linkers("b.md"), " "); got != "a.md" {
		t.Errorf("linkers of b.md: %s", got)
	}
	old := ix.File("a.md")
	if !SameTargets(old, Parse("a.md", "# A\n\nnew prose\n\n## Part\n")) {
		t.Errorf("prose edits change no target")
	}
	if SameTargets(old, Parse("a.md", "# A\n\n## Parts\n")) || SameTargets(old, Parse("a.md", "# A2\n\n## Part\n")) || SameTargets(nil, old) {
		t.Errorf("heading, title or existence changes are changes")
	}
}

// editsText lists edits as "file:new text", separated by spaces.
func editsText(ed []Edit) string {
	var got []string
	for _, e := range ed {
		got = append(got, e.Rel+":"+e.NewText)
	}
	return strings.Join(got, " ")
}

// A parsed file keeps copies of its strings, not substrings of the text:
// the text can be collected while the file (an index entry) lives on.
func TestParseKeepsNoText(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Title\n\nSee [x](other.md#part) and [[wiki#anchor|alias]].\n\n[def]: ref.md#sec\n")
	for b.Len() < 1<<20 {
		b.WriteString("Filler text that makes the file a large allocation of its own.\n")
	}
	text := b.String()
	collected := make(chan struct{})
	runtime.AddCleanup(unsafe.StringData(text), func(ch chan struct{}) { close(ch) }, collected)
	f := Parse("a.md", text)
	text = ""
	for i := 0; i < 20; i++ {
		runtime.GC()
		select {
		case <-collected:
			if f.Title != "Title" || len(f.Links) != 3 || f.Links[0].Anchor != "part" || f.Links[1].Alias != "alias" || f.Links[2].Target != "ref.md" {
				t.Fatalf("parsed %+v", f)
			}
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("the text of a parsed file stays in memory while the file lives (title %q)", f.Title)
}

// TestProblemsInLeavesTheIndexAlone checks that a file the index does not
// hold is checked against it without being added: its broken links and
// anchors, its links into itself, and the index unchanged afterwards.
func TestProblemsInLeavesTheIndexAlone(t *testing.T) {
	root := t.TempDir()
	ix := New(root)
	ix.Update("guide.md", "# Guide\n\n## Usage\n")
	text := "# Notes\n\n## Here\n\n[a](guide.md#usage) [b](guide.md#gone) [c](missing.md) [d](#here) [e](#nowhere)\n"

	var codes []string
	for _, p := range ix.ProblemsIn("notes.md", text) {
		codes = append(codes, p.Code+" "+p.Link.Target+"#"+p.Link.Anchor)
	}
	want := []string{CodeBrokenAnchor + " guide.md#gone", CodeBrokenLink + " missing.md#", CodeBrokenAnchor + " #nowhere"}
	if strings.Join(codes, ", ") != strings.Join(want, ", ") {
		t.Fatalf("problems = %q, want %q", codes, want)
	}
	if ix.File("notes.md") != nil || ix.Len() != 1 {
		t.Fatalf("ProblemsIn added notes.md to the index (%d files)", ix.Len())
	}
}
