package lsp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/markdown/links"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/workspace"
)

// resolveHover finds the Knowledge Unit (or plugin) a term stands for and
// renders it; "" when there is none.
func resolveHover(ctx context.Context, f *folder, ws *workspace.Workspace, docPath string, t term, mode string) string {
	store := ws.KB.Store()
	from, _ := f.links.Rel(docPath)
	switch t.kind {
	case termLink, termWiki:
		kind := links.Inline
		if t.kind == termWiki {
			kind = links.Wiki
		}
		target, anchor, has := strings.Cut(t.text, "#")
		if q := strings.IndexByte(target, '?'); q >= 0 && kind == links.Inline {
			target = target[:q]
		}
		if kind == links.Inline {
			if u, err := url.PathUnescape(target); err == nil {
				target = u
			}
		}
		res := f.links.Resolve(from, links.Link{Kind: kind, Target: target, Anchor: anchor, HasAnchor: has})
		if res.Rel == "" || !res.Markdown {
			return ""
		}
		if res.Heading != nil {
			return describe(f, ws, links.Def{Rel: res.Rel, Heading: *res.Heading})
		}
		if file := f.links.File(res.Rel); file != nil {
			for _, h := range file.Headings {
				if h.Text == file.Title {
					return describe(f, ws, links.Def{Rel: res.Rel, Heading: h, Title: true})
				}
			}
		}
		units, _ := store.SourceKUs(res.Rel)
		if len(units) > 0 {
			return renderKU(f, units[0])
		}
		return ""
	}
	for _, cand := range []string{t.wide, t.text} {
		if cand == "" {
			continue
		}
		if e, ok := ws.Catalog.Entry(cand); ok {
			return renderPlugin(f, ws, e)
		}
		if strings.Contains(cand, "::") {
			if ku, _ := store.KU(cand); ku != nil {
				return renderKU(f, ku)
			}
		}
	}
	if mode != HoverTerms {
		return ""
	}
	for _, d := range f.links.Defines(from, t.text) {
		if md := describe(f, ws, d); md != "" {
			return md
		}
	}
	return ""
}

// describe renders the unit of a defining heading: the unit that starts
// on the heading's line with prose before the first sub-heading (a page's
// description block, a section's first paragraph), else the heading
// section's summary (the sub-sections it covers). Code is never shown.
func describe(f *folder, ws *workspace.Workspace, d links.Def) string {
	units, err := ws.KB.Store().SourceKUs(d.Rel)
	if err != nil || len(units) == 0 {
		return ""
	}
	line := d.Heading.Line + 1 // KU ranges are 1-based
	own := d.Heading.EndLine + 1
	if file := f.links.File(d.Rel); file != nil {
		for _, h := range file.Headings {
			if h.Line > d.Heading.Line {
				own = h.Line // the line before the next heading, 1-based
				break
			}
		}
	}
	var section, leaf *kus.KU
	for _, u := range units {
		if u.Level == kus.LevelSummary || u.Range.StartLine < line || u.Range.StartLine > own {
			continue
		}
		if u.Level == kus.LevelSection && u.Range.StartLine == line && section == nil {
			section = u
		} else if leaf == nil && u.Level != kus.LevelSection && describingText(u) != "" {
			leaf = u
		}
	}
	switch {
	case section != nil && describingText(section) != "":
		return renderDescription(f, section, d.Heading.Text, describingText(section))
	case leaf != nil:
		return renderDescription(f, leaf, d.Heading.Text, describingText(leaf))
	case section != nil && strings.HasPrefix(strings.TrimSpace(section.TextBody), "Covers: "):
		return renderDescription(f, section, d.Heading.Text, strings.TrimSpace(section.TextBody))
	}
	return ""
}

// describingText is the prose of a unit: its text body (else its claim),
// without the "Covers: ..." list of a section aggregate; "" when it is
// empty or code.
func describingText(u *kus.KU) string {
	body := strings.TrimSpace(u.TextBody)
	if body == "" {
		body = strings.TrimSpace(u.Claim)
	}
	if i := strings.Index(body, "Covers: "); i >= 0 {
		body = strings.TrimSpace(body[:i])
	}
	if body == "" || body == u.Title || looksLikeCode(body) {
		return ""
	}
	return body
}

// looksLikeCode reports whether a unit's text is a command or code line
// rather than prose.
func looksLikeCode(s string) bool {
	return strings.HasPrefix(s, "`") || strings.Contains(s, "{{") || strings.HasPrefix(s, "$ ") ||
		strings.Count(s, "/") > 3 && !strings.ContainsAny(s, ".!?")
}

// renderDescription renders a describing unit under the term's title.
func renderDescription(f *folder, ku *kus.KU, title, text string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**\n\n%s\n\n", escapeMD(title), clip(text, 600))
	writeKUSource(&b, f, ku)
	return b.String()
}

// retriever returns the kb-plugin used for hover and symbols: kb-fast when
// loaded, else the first loaded kb-plugin.
func retriever(ws *workspace.Workspace) plugin.KBPlugin {
	if p, ok := ws.Catalog.Registry.KB("kb-fast"); ok {
		return p
	}
	for _, id := range ws.Catalog.Order(plugin.LoopKB) {
		if p, ok := ws.Catalog.Registry.KB(id); ok {
			return p
		}
	}
	return nil
}

// search ranks KUs for a query (BM25 through the kb-plugin), evidence and
// guidance together, best first.
func search(ctx context.Context, ws *workspace.Workspace, query string, max int) []plugin.ScoredKU {
	p := retriever(ws)
	if p == nil || strings.TrimSpace(query) == "" {
		return nil
	}
	res, err := p.Retrieve(ctx, plugin.RunContext{}, &plugin.RetrieveInput{
		Payload: plugin.Payload{Prompt: query}, MaxResults: max, Purpose: plugin.PurposeMixed, KUs: ws.KB.Store(),
	})
	if err != nil || res == nil {
		return nil
	}
	var out []plugin.ScoredKU
	for _, ri := range res.ResolvedIntents {
		out = append(out, ri.Evidence...)
		out = append(out, ri.Guidance...)
	}
	sortScored(out)
	return out
}

func sortScored(out []plugin.ScoredKU) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Score > out[j-1].Score; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
}

// kuLocation returns the file URI and LSP range of a KU ("" for built-in sources).
func kuLocation(f *folder, ku *kus.KU) (string, protocol.Range) {
	if strings.HasPrefix(ku.SourceID, "plugin::") {
		return "", protocol.Range{}
	}
	abs := filepath.Join(f.root, filepath.FromSlash(ku.SourceID))
	text := ""
	if b, err := fsafe.ReadFile(f.root, abs, MaxDiagnosedBytes); err == nil {
		text = string(b)
	}
	r := protocol.Range{
		Start: lineColPosition(text, ku.Range.StartLine, ku.Range.StartCol),
		End:   lineColPosition(text, ku.Range.EndLine, ku.Range.EndCol),
	}
	return pathToURI(abs), r
}

// renderKU renders a KU for a hover.
func renderKU(f *folder, ku *kus.KU) string {
	var b strings.Builder
	title := ku.Title
	if title == "" {
		title = ku.ID
	}
	fmt.Fprintf(&b, "**%s**", escapeMD(title))
	var meta []string
	if ku.Role != "" {
		meta = append(meta, ku.Role)
	}
	if ku.Level != "" {
		meta = append(meta, ku.Level)
	}
	if len(meta) > 0 {
		fmt.Fprintf(&b, " · *%s*", strings.Join(meta, " · "))
	}
	b.WriteString("\n\n")
	body := ku.Claim
	if body == "" {
		body = ku.Text()
	}
	b.WriteString(clip(body, 600))
	b.WriteString("\n\n")
	writeKUSource(&b, f, ku)
	return b.String()
}

// renderPlugin renders a plugin's descriptor and its plugin.kus.md KUs.
func renderPlugin(f *folder, ws *workspace.Workspace, e *plugins.Entry) string {
	d := e.Descriptor
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · *%s*", d.ID, d.Type)
	if d.Version != "" {
		fmt.Fprintf(&b, " · v%s", d.Version)
	}
	state := "disabled"
	switch {
	case e.Loaded:
		state = "loaded"
	case e.Enabled:
		state = "enabled, not loaded"
	}
	fmt.Fprintf(&b, " · %s · %s\n\n", e.Origin, state)
	if d.Name != "" && d.Name != d.ID {
		fmt.Fprintf(&b, "%s — ", escapeMD(d.Name))
	}
	b.WriteString(clip(d.Description, 400))
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "cost class `%s`", d.CostClass)
	if d.UsesLLM {
		b.WriteString(" · uses an LLM")
	}
	if len(d.Provides) > 0 {
		fmt.Fprintf(&b, " · provides %s", strings.Join(d.Provides, ", "))
	}
	units, _ := ws.KB.Store().SourceKUs(plugins.KUSourceID(d.ID))
	n := 0
	for _, u := range units {
		if u.Level == kus.LevelSummary || n >= 5 {
			continue
		}
		if n == 0 {
			b.WriteString("\n\n**Knowledge units** (plugin.kus.md)\n")
		}
		n++
		fmt.Fprintf(&b, "\n- **%s**", escapeMD(u.Title))
		if u.Role != "" {
			fmt.Fprintf(&b, " *(%s)*", u.Role)
		}
		if t := u.Text(); t != "" {
			fmt.Fprintf(&b, ": %s", clip(strings.ReplaceAll(t, "\n", " "), 160))
		}
	}
	if e.Ref != "" {
		fmt.Fprintf(&b, "\n\n`%s`", e.Ref)
	}
	return b.String()
}

// writeKUSource ends a rendered unit with where it comes from: a link to
// its source line (or the source id) and the unit's id.
func writeKUSource(b *strings.Builder, f *folder, ku *kus.KU) {
	if u, _ := kuLocation(f, ku); u != "" {
		fmt.Fprintf(b, "[%s:%d](%s#L%d)", ku.SourceID, ku.Range.StartLine, u, ku.Range.StartLine)
	} else {
		fmt.Fprintf(b, "`%s`", ku.SourceID)
	}
	fmt.Fprintf(b, " · `%s`", ku.ID)
}
