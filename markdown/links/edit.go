package links

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
)

// Edit replaces a span of a file.
type Edit struct {
	Rel     string
	Span    Span
	NewText string
}

// Errors of the rename operations.
var (
	ErrEmptyName     = errors.New("rename_refused: a heading cannot be renamed to an empty text")
	ErrDuplicateName = errors.New("rename_refused: the file already has a heading with that anchor")
	ErrNoHeading     = errors.New("rename_refused: there is no heading there")
)

// RenameHeading returns the edits that rename the heading on line ln of
// file rel to newText: the heading itself and every link to its anchor. A
// new text that is empty or whose anchor another heading of the file
// already has is refused.
func (ix *Index) RenameHeading(rel string, ln int, newText string) ([]Edit, error) {
	newText = strings.TrimSpace(newText)
	f := ix.File(rel)
	if f == nil {
		return nil, fmt.Errorf("rename_refused: %s is not indexed", rel)
	}
	h := f.HeadingAt(ln)
	if h == nil {
		return nil, ErrNoHeading
	}
	newAnchor := Slug(newText)
	if newText == "" || newAnchor == "" {
		return nil, ErrEmptyName
	}
	for _, o := range f.Headings {
		if o.Line != h.Line && (o.Anchor == newAnchor || Slug(o.Text) == newAnchor) {
			return nil, fmt.Errorf("%w (%q, line %d)", ErrDuplicateName, o.Text, o.Line+1)
		}
	}
	out := []Edit{{Rel: rel, Span: h.Span, NewText: newText}}
	if newAnchor == h.Anchor {
		return out, nil
	}
	for _, r := range ix.LinksTo(rel, h.Anchor) {
		l := r.Link
		nt := newAnchor
		if l.Kind == Wiki && l.Anchor != h.Anchor {
			nt = newText // the link gave the heading's text
		}
		out = append(out, Edit{Rel: r.Rel, Span: l.AnchorSpan, NewText: nt})
	}
	return sortEdits(out), nil
}

// FileMove is one renamed file or folder (workspace slash paths).
type FileMove struct{ From, To string }

// RenameFiles returns the edits that keep links working when files or
// folders move: links to a moved file get its new path (relative links stay
// relative, wiki links keep naming the file the way they did), and the
// relative links inside a moved file are rewritten for its new folder.
// Edits are on the files' paths before the move.
func (ix *Index) RenameFiles(moves []FileMove) []Edit {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	// Expand folder moves to the files they hold.
	dest := map[string]string{}
	for _, m := range moves {
		if _, ok := ix.files[m.From]; ok {
			dest[m.From] = m.To
			continue
		}
		prefix := strings.TrimSuffix(m.From, "/") + "/"
		for r := range ix.files {
			if strings.HasPrefix(r, prefix) {
				dest[r] = strings.TrimSuffix(m.To, "/") + "/" + strings.TrimPrefix(r, prefix)
			}
		}
	}
	if len(dest) == 0 {
		return nil
	}
	newPath := func(r string) string {
		if d, ok := dest[r]; ok {
			return d
		}
		return r
	}
	var out []Edit
	for from, f := range ix.files {
		fromNew := newPath(from)
		for _, l := range f.Links {
			if l.Target == "" {
				continue
			}
			t := ix.resolve(from, l)
			if t.Outside || t.Rel == "" {
				continue
			}
			_, moved := dest[t.Rel]
			if !moved && fromNew == from {
				continue
			}
			if l.Kind == Wiki {
				if !moved {
					continue // wiki names do not depend on the linking file's folder
				}
				nt := wikiName(l.Target, t.Rel, newPath(t.Rel))
				if nt != l.Target {
					out = append(out, Edit{Rel: from, Span: l.TargetSpan, NewText: nt})
				}
				continue
			}
			if !t.Exists && !moved {
				continue // a broken link stays as it was
			}
			nt := RelPath(path.Dir(fromNew), newPath(t.Rel))
			if strings.HasSuffix(t.Rel, ".md") && !strings.HasSuffix(l.Target, ".md") && path.Ext(l.Target) == "" {
				nt = strings.TrimSuffix(nt, ".md")
			}
			if nt != l.Target {
				out = append(out, Edit{Rel: from, Span: l.TargetSpan, NewText: escapeTarget(nt)})
			}
		}
	}
	return sortEdits(out)
}

// wikiName rewrites a wiki target naming oldRel so it names newRel the
// same way (a path or a bare name).
func wikiName(target, oldRel, newRel string) string {
	ext := path.Ext(target)
	name := strings.TrimSuffix(newRel, path.Ext(newRel))
	if strings.Contains(target, "/") {
		return name + ext
	}
	return path.Base(name) + ext
}

// RelPath is the relative link from the slash-separated workspace folder
// dir ("." for the root) to the workspace-relative file rel.
func RelPath(dir, rel string) string {
	if dir == "." {
		return rel
	}
	a, b := strings.Split(dir, "/"), strings.Split(rel, "/")
	n := 0
	for n < len(a) && n < len(b)-1 && a[n] == b[n] {
		n++
	}
	return strings.Repeat("../", len(a)-n) + strings.Join(b[n:], "/")
}

// escapeTarget percent-encodes what a bare link destination cannot hold.
func escapeTarget(p string) string {
	if !strings.ContainsAny(p, " ()<>%") {
		return p
	}
	u := url.URL{Path: p}
	return u.EscapedPath()
}

func sortEdits(e []Edit) []Edit {
	sort.Slice(e, func(i, j int) bool {
		if e[i].Rel != e[j].Rel {
			return e[i].Rel < e[j].Rel
		}
		if e[i].Span.Line != e[j].Span.Line {
			return e[i].Span.Line < e[j].Span.Line
		}
		return e[i].Span.Start < e[j].Span.Start
	})
	return e
}
