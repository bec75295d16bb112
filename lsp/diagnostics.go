package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
	"go.lsp.dev/protocol"
)

// diagnostic is an LSP Diagnostic (the protocol package models code and
// message as unions; this is the plain wire form).
type diagnostic struct {
	Range    protocol.Range `json:"range"`
	Severity int            `json:"severity"`
	Code     string         `json:"code,omitempty"`
	Source   string         `json:"source"`
	Message  string         `json:"message"`
}

// scheduleDiagnostics recomputes and publishes a document's diagnostics
// after a short quiet period (edits in a burst publish once).
func (s *Server) scheduleDiagnostics(u string) {
	path := uriToPath(u)
	if path == "" || !diagnosable(path) {
		return
	}
	s.dmu.Lock()
	defer s.dmu.Unlock()
	if s.dtimers == nil {
		s.dtimers = map[string]*time.Timer{}
	}
	if t := s.dtimers[u]; t != nil {
		t.Stop()
	}
	s.dtimers[u] = time.AfterFunc(s.opt.Debounce, func() {
		s.dmu.Lock()
		delete(s.dtimers, u)
		s.dmu.Unlock()
		if s.ctx.Err() != nil {
			return
		}
		s.goBG(func() { s.publishDiagnostics(u) })
	})
}

func diagnosable(path string) bool {
	base := filepath.Base(path)
	return base == "plugin.json" || base == wrapper.ManifestFile || strings.HasSuffix(strings.ToLower(base), ".md")
}

// publishDiagnostics computes one document's diagnostics and sends them.
func (s *Server) publishDiagnostics(u string) {
	text, err := s.readText(u)
	diags := []diagnostic{}
	if err == nil {
		diags = computeDiagnostics(uriToPath(u), text)
	}
	s.notify("textDocument/publishDiagnostics", map[string]any{"uri": u, "diagnostics": diags})
}

// computeDiagnostics checks a plugin descriptor, a wrapper manifest, a
// plugin.kus.md or a Markdown source, with the plugin system's codes.
func computeDiagnostics(path, text string) []diagnostic {
	out := []diagnostic{}
	fromPluginErrors := func(errs []*sdk.PluginError) {
		for _, e := range errs {
			sev := 1
			if e.Warning {
				sev = 2
			}
			out = append(out, diagnostic{Range: lineRange(text, e.Line, e.Col), Severity: sev, Code: e.Code, Source: "mrpvm", Message: e.Message})
		}
	}
	base := filepath.Base(path)
	switch {
	case base == "plugin.json":
		_, errs := sdk.ParseDescriptor([]byte(text), path)
		fromPluginErrors(errs)
	case base == wrapper.ManifestFile:
		// The manifest checker reads the file (sandbox paths are relative to it).
		_, errs := wrapper.LoadManifest(path)
		fromPluginErrors(errs)
	case base == "plugin.kus.md":
		id := filepath.Base(filepath.Dir(path))
		fromPluginErrors(plugins.CheckKUs(id, []byte(text), path))
	default:
		if doc, err := kus.Parse([]byte(text), kus.SourceInfo{SourceID: base}); err == nil {
			for _, d := range doc.Diagnostics {
				r := lineRange(text, d.Line, d.Col)
				if d.EndLine > 0 {
					r.End = lineColPosition(text, d.EndLine, d.EndCol)
				}
				out = append(out, diagnostic{Range: r, Severity: int(d.Severity), Code: d.Code, Source: "mrpvm", Message: d.Message})
			}
		}
		out = append(out, brokenLinks(path, text)...)
	}
	return out
}

// brokenLinks reports relative Markdown links to missing files as hints.
func brokenLinks(path, text string) []diagnostic {
	var out []diagnostic
	for _, m := range mdLinkRe.FindAllStringSubmatchIndex(text, -1) {
		target := text[m[2]:m[3]]
		if !isRelativeLink(target) {
			continue
		}
		file, _, _ := strings.Cut(target, "#")
		file, _, _ = strings.Cut(file, "?")
		if file == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), filepath.FromSlash(file))); err == nil {
			continue
		}
		out = append(out, diagnostic{
			Range:    protocol.Range{Start: positionOf(text, m[2]), End: positionOf(text, m[3])},
			Severity: 4, Code: "broken_link", Source: "mrpvm",
			Message: "link target " + file + " does not exist",
		})
	}
	return out
}

// lineRange is the rest of a 1-based line from a 1-based column (the whole
// first line when the position is unknown).
func lineRange(text string, line, col int) protocol.Range {
	if line < 1 {
		line, col = 1, 1
	}
	start := lineColPosition(text, line, col)
	end := lineColPosition(text, line, 1<<30)
	if end.Line != start.Line || end.Character < start.Character {
		end = start
	}
	return protocol.Range{Start: start, End: end}
}
