package lsp

import (
	"encoding/json"
	"path"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/markdown/links"
)

// AskAboutCommand is the client-side command the "Ask about the
// selection" and "Explain this term" code actions run. Its one argument is
// {question?, context?, folder}: the client asks for the question when it
// is missing, runs mrpvm.ask with it and shows the answer.
const AskAboutCommand = "mrpvm.ui.askAbout"

// markdownActions answers textDocument/codeAction. It offers, in a
// Markdown document: creating the missing file of a broken link under the
// range, asking about the selected text, and explaining the word under the
// cursor.
func markdownActions(s *Server, p *protocol.CodeActionParams, d linkDoc) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	want := func(k protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if o == k || strings.HasPrefix(string(k), string(o)+".") {
				return true
			}
		}
		return false
	}
	quickfix := protocol.CodeActionKindQuickFix
	if want(quickfix) {
		for _, pr := range d.f.links.Problems(d.rel) {
			if pr.Missing == "" || !overlaps(p.Range, pr.Link.Whole) {
				continue
			}
			if a := createFileAction(d, pr, p.Context.Diagnostics); a != nil {
				out = append(out, *a)
			}
		}
	}
	askKind := protocol.CodeActionKind("mrpvm.ask")
	if !want(askKind) {
		return out
	}
	folderURI := pathToURI(d.f.root)
	text, err := s.readText(string(p.TextDocument.URI))
	if err != nil {
		return out
	}
	start, end := offsetOf(text, p.Range.Start), offsetOf(text, p.Range.End)
	if sel := strings.TrimSpace(text[start:end]); sel != "" {
		out = append(out, protocol.CodeAction{Title: "Ask about the selection", Kind: &askKind,
			Command: protocol.Command{Title: "Ask about the selection", Command: AskAboutCommand,
				Arguments: []protocol.LSPAny{anyJSON(map[string]any{"context": clip(sel, 4000), "folder": folderURI})}}})
	}
	if w := wordAt(text, start); w != "" && (start == end || strings.TrimSpace(text[start:end]) == w) {
		title := "Explain " + clip(w, 40)
		out = append(out, protocol.CodeAction{Title: title, Kind: &askKind,
			Command: protocol.Command{Title: title, Command: AskAboutCommand,
				Arguments: []protocol.LSPAny{anyJSON(map[string]any{"question": "What is " + w + "?", "folder": folderURI})}}})
	}
	return out
}

// createFileAction creates the missing target of a broken link with a
// title heading.
func createFileAction(d linkDoc, pr links.Problem, diags []protocol.Diagnostic) *protocol.CodeAction {
	if _, inside := d.f.links.Rel(d.f.links.Abs(pr.Missing)); !inside || !strings.HasSuffix(strings.ToLower(pr.Missing), ".md") {
		return nil
	}
	target := d.f.relURI(pr.Missing)
	title := pr.Link.Target
	if pr.Link.Kind != links.Wiki {
		title = strings.TrimSuffix(path.Base(pr.Missing), path.Ext(pr.Missing))
	}
	no := false
	kind := protocol.CodeActionKindQuickFix
	var related []protocol.Diagnostic
	for _, dg := range diags {
		if dg.Range.Start.Line == uint32(pr.Link.Whole.Line) {
			related = append(related, dg)
		}
	}
	return &protocol.CodeAction{
		Title:       "Create " + pr.Missing,
		Kind:        &kind,
		Diagnostics: related,
		Edit: &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
			&protocol.CreateFile{Kind: "create", URI: target, Options: &protocol.CreateFileOptions{IgnoreIfExists: &no}},
			&protocol.TextDocumentEdit{
				TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: target}},
				Edits:        []protocol.TextDocumentEditElement{&protocol.TextEdit{NewText: "# " + title + "\n"}},
			},
		}},
	}
}

// overlaps reports whether an LSP range touches a span.
func overlaps(r protocol.Range, sp links.Span) bool {
	if int(r.End.Line) < sp.Line || int(r.Start.Line) > sp.Line {
		return false
	}
	if int(r.Start.Line) == sp.Line && int(r.Start.Character) > sp.End {
		return false
	}
	if int(r.End.Line) == sp.Line && int(r.End.Character) < sp.Start {
		return false
	}
	return true
}

// anyJSON encodes a value as an LSPAny.
func anyJSON(v any) protocol.LSPAny {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of strings are passed
	}
	return protocol.LSPAny(b)
}
