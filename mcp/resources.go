package mcp

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mrpvm/mrpvm/kus"
)

// URI prefixes of the resources.
const (
	KUScheme     = "mrpvm://ku/"
	SourceScheme = "mrpvm://source/"
)

// MaxListedSources bounds the source files listed by resources/list; all
// ingested sources stay readable through the mrpvm://source/ template.
const MaxListedSources = 1000

// KUURI returns the resource URI of a KU id.
func KUURI(id string) string { return KUScheme + escape(id) }

// SourceURI returns the resource URI of a workspace-relative source path.
func SourceURI(sourceID string) string { return SourceScheme + escape(sourceID) }

// escape percent-encodes what a URI cannot hold, keeping the slashes and
// colons of ids such as notes/a.md::section-001 readable.
func escape(s string) string {
	var b strings.Builder
	for _, seg := range strings.Split(s, "/") {
		if b.Len() > 0 || strings.HasPrefix(s, "/") {
			b.WriteByte('/')
		}
		b.WriteString(strings.ReplaceAll(url.PathEscape(seg), "%3A", ":"))
	}
	return b.String()
}

func unescape(uri, prefix string) (string, error) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok || rest == "" {
		return "", mcpsdk.ResourceNotFoundError(uri)
	}
	id, err := url.PathUnescape(rest)
	if err != nil {
		return "", mcpsdk.ResourceNotFoundError(uri)
	}
	return id, nil
}

// syncSources lists the ingested source files as resources.
func (s *Server) syncSources() {
	recs, err := s.w.KB.Store().Sources()
	if err != nil {
		s.opt.Logger.Warn("list sources", "err", err)
		return
	}
	now := map[string]bool{}
	for _, r := range recs {
		if r.Path == "" || len(now) >= MaxListedSources {
			continue
		}
		uri := SourceURI(r.SourceID)
		now[uri] = true
		if !s.list[uri] {
			size := r.Size
			s.srv.AddResource(&mcpsdk.Resource{URI: uri, Name: r.SourceID, Title: r.Title, MIMEType: "text/markdown", Size: size}, s.readSource)
		}
	}
	var gone []string
	for uri := range s.list {
		if !now[uri] {
			gone = append(gone, uri)
		}
	}
	if len(gone) > 0 {
		s.srv.RemoveResources(gone...)
	}
	s.list = now
}

func (s *Server) readKU(_ context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, err := unescape(uri, KUScheme)
	if err != nil {
		return nil, err
	}
	u, err := s.w.KB.Store().KU(id)
	if err != nil || u == nil {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: renderKU(u)}}}, nil
}

// renderKU writes a KU as Markdown: title, provenance, statement.
func renderKU(u *kus.KU) string {
	var b strings.Builder
	title := u.Title
	if title == "" {
		title = u.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "Source: %s:%d-%d · %s %s", u.SourceID, u.Range.StartLine, u.Range.EndLine, u.Level, u.KUType)
	if u.Role != "" {
		fmt.Fprintf(&b, " · role %s", u.Role)
	}
	b.WriteString("\n\n")
	if t := strings.TrimSpace(u.Text()); t != "" {
		b.WriteString(t + "\n")
	}
	if u.HasFact() {
		fmt.Fprintf(&b, "\nFact: %s %s %s\n", u.SymbolicSubject, u.SymbolicRelation, u.SymbolicObject)
	}
	return b.String()
}

// readSource serves an ingested source file. Only sources the knowledge
// base holds are served (so ignore rules, the binary and size checks of
// ingest have passed), and the file is opened through os.Root, so neither
// "..", an absolute path nor a symbolic link can leave the workspace.
func (s *Server) readSource(_ context.Context, req *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
	uri := req.Params.URI
	id, err := unescape(uri, SourceScheme)
	if err != nil {
		return nil, err
	}
	rec, err := s.w.KB.Store().Source(id)
	if err != nil || rec == nil || rec.Path == "" || path.Clean(id) != id {
		return nil, mcpsdk.ResourceNotFoundError(uri)
	}
	root, err := os.OpenRoot(s.w.KB.Workspace())
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	defer root.Close()
	f, err := root.Open(id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, s.opt.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", id, err)
	}
	if int64(len(b)) > s.opt.MaxFileSize {
		return nil, fmt.Errorf("read %s: larger than the %d-byte cap", id, s.opt.MaxFileSize)
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("read %s: not UTF-8 text", id)
	}
	return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(b)}}}, nil
}
