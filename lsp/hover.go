package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/engine/vm"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// termKind says where a hovered term came from.
type termKind int

const (
	termWord    termKind = iota
	termLink             // a relative Markdown link target
	termWiki             // [[wiki link]]
	termHeading          // the text of the heading under the cursor
)

// term is what the cursor points at.
type term struct {
	kind termKind
	text string // the word, link target, wiki name or heading text
	wide string // the whitespace-delimited token (KU ids contain "::", "/", ".")
	rng  protocol.Range
}

var (
	mdLinkRe   = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	wikiLinkRe = regexp.MustCompile(`\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]`)
	headingRe  = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$`)
)

// termAt finds the term under a byte offset of text.
func termAt(text string, off int) (term, bool) {
	ls := strings.LastIndexByte(text[:off], '\n') + 1
	le := strings.IndexByte(text[off:], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += off
	}
	line := text[ls:le]
	col := off - ls
	rangeOf := func(a, b int) protocol.Range {
		return protocol.Range{Start: positionOf(text, ls+a), End: positionOf(text, ls+b)}
	}
	for _, m := range wikiLinkRe.FindAllStringSubmatchIndex(line, -1) {
		if col >= m[0] && col < m[1] {
			return term{kind: termWiki, text: strings.TrimSpace(line[m[2]:m[3]]), rng: rangeOf(m[0], m[1])}, true
		}
	}
	for _, m := range mdLinkRe.FindAllStringSubmatchIndex(line, -1) {
		if col >= m[0] && col < m[1] {
			target := line[m[2]:m[3]]
			if isRelativeLink(target) {
				return term{kind: termLink, text: target, rng: rangeOf(m[0], m[1])}, true
			}
		}
	}
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' }
	a, b := col, col
	for a > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:a])
		if !isWord(r) {
			break
		}
		a -= size
	}
	for b < len(line) {
		r, size := utf8.DecodeRuneInString(line[b:])
		if !isWord(r) {
			break
		}
		b += size
	}
	word := strings.Trim(line[a:b], "-_")
	isWide := func(r rune) bool { return !unicode.IsSpace(r) && !strings.ContainsRune("()[]<>\"'`,;", r) }
	wa, wb := col, col
	for wa > 0 {
		r, size := utf8.DecodeLastRuneInString(line[:wa])
		if !isWide(r) {
			break
		}
		wa -= size
	}
	for wb < len(line) {
		r, size := utf8.DecodeRuneInString(line[wb:])
		if !isWide(r) {
			break
		}
		wb += size
	}
	wide := strings.TrimRight(line[wa:wb], ".:")
	if m := headingRe.FindStringSubmatch(line); m != nil && strings.TrimSpace(m[1]) != "" {
		return term{kind: termHeading, text: strings.TrimSpace(m[1]), wide: wide, rng: rangeOf(0, len(line))}, true
	}
	if word == "" {
		return term{}, false
	}
	return term{kind: termWord, text: word, wide: wide, rng: rangeOf(a, b)}, true
}

// cacheKey identifies what a term resolves to: the same word hovered in
// any file shows the same unit; a relative link depends on the folder of
// the file it is in.
func (t term) cacheKey(docPath string) string {
	k := strconv.Itoa(int(t.kind)) + "\x00" + t.text + "\x00" + t.wide
	if t.kind == termLink {
		k += "\x00" + filepath.Dir(docPath)
	}
	return k
}

// hoverCache keeps rendered hovers (including "nothing here") until the
// folder's knowledge base changes: every ingest run and every switch of
// knowledge base starts a new generation. Common words have long posting
// lists, so the cache takes the slow tail off repeated hovers.
type hoverCache struct {
	mu     sync.Mutex
	gen    uint64
	m      map[string]string
	ingest int // ingest runs in flight: their commits are not final yet
}

// maxCachedHovers bounds the cache; it is emptied when full.
const maxCachedHovers = 4096

func (c *hoverCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	md, ok := c.m[key]
	return md, ok
}

func (c *hoverCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put stores a hover computed during generation gen (dropped when the
// knowledge base changed meanwhile).
func (c *hoverCache) put(gen uint64, key, md string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.ingest > 0 {
		return
	}
	if c.m == nil || len(c.m) >= maxCachedHovers {
		c.m = map[string]string{}
	}
	c.m[key] = md
}

// invalidate starts a new generation.
func (c *hoverCache) invalidate() {
	c.mu.Lock()
	c.gen++
	c.m = nil
	c.mu.Unlock()
}

// beginIngest stops caching until the matching endIngest, which starts a
// new generation: while sources are being committed nothing is final.
func (c *hoverCache) beginIngest() {
	c.mu.Lock()
	c.ingest++
	c.gen++
	c.m = nil
	c.mu.Unlock()
}

func (c *hoverCache) endIngest() {
	c.mu.Lock()
	c.ingest--
	c.gen++
	c.m = nil
	c.mu.Unlock()
}

// isRelativeLink reports whether a link target is a relative file link.
func isRelativeLink(t string) bool {
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/") {
		return false
	}
	if i := strings.Index(t, ":"); i >= 0 && !strings.Contains(t[:i], "/") {
		return false // scheme: http:, mailto:, ...
	}
	return true
}

// hover answers textDocument/hover from the knowledge base.
func (s *Server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad_params: "+err.Error())
	}
	text, err := s.readText(p.TextDocument.URI)
	if err != nil {
		return nil, nil // nothing to hover over
	}
	t, ok := termAt(text, offsetOf(text, p.Position))
	if !ok {
		return nil, nil
	}
	path := uriToPath(p.TextDocument.URI)
	f := s.folderFor(path)
	if f == nil {
		return nil, nil
	}
	key := t.cacheKey(path)
	md, ok := f.hovers.get(key)
	if !ok {
		gen := f.hovers.generation()
		err = f.withWS(ctx, func(ws *vm.Workspace) error {
			md = resolveHover(ctx, f, ws, path, t)
			return nil
		})
		if err == nil && ctx.Err() == nil {
			f.hovers.put(gen, key, md)
		}
	}
	if err != nil || md == "" {
		return nil, err
	}
	r := t.rng
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}, Range: &r}, nil
}

// resolveHover finds the best Knowledge Unit (or plugin) for a term and
// renders it; "" when nothing matches.
func resolveHover(ctx context.Context, f *folder, ws *vm.Workspace, docPath string, t term) string {
	store := ws.KB.Store()
	switch t.kind {
	case termLink:
		target := t.text
		if i := strings.IndexAny(target, "#?"); i >= 0 {
			target = target[:i]
		}
		abs := filepath.Join(filepath.Dir(docPath), filepath.FromSlash(target))
		id, err := ws.KB.SourceIDFor(abs)
		if err != nil {
			return ""
		}
		units, _ := store.SourceKUs(id)
		if len(units) > 0 {
			return renderKU(f, units[0])
		}
		return ""
	case termWiki:
		if ku := wikiTarget(ws, t.text); ku != nil {
			return renderKU(f, ku)
		}
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
	if best := bestKU(ctx, ws, t.text, nil); best != nil {
		return renderKU(f, best.KU)
	}
	return ""
}

// retriever returns the kb-plugin used for hover and symbols: kb-fast when
// loaded, else the first loaded kb-plugin.
func retriever(ws *vm.Workspace) sdk.KBPlugin {
	if p, ok := ws.Catalog.Registry.KB("kb-fast"); ok {
		return p
	}
	for _, id := range ws.Catalog.Order(sdk.LoopKB) {
		if p, ok := ws.Catalog.Registry.KB(id); ok {
			return p
		}
	}
	return nil
}

// search ranks KUs for a query (BM25 through the kb-plugin), evidence and
// guidance together, best first.
func search(ctx context.Context, ws *vm.Workspace, query string, max int) []sdk.ScoredKU {
	p := retriever(ws)
	if p == nil || strings.TrimSpace(query) == "" {
		return nil
	}
	res, err := p.Retrieve(ctx, sdk.RunContext{}, &sdk.RetrieveInput{
		Payload: sdk.Payload{Prompt: query}, MaxResults: max, Purpose: sdk.PurposeMixed, KUs: ws.KB.Store(),
	})
	if err != nil || res == nil {
		return nil
	}
	var out []sdk.ScoredKU
	for _, ri := range res.ResolvedIntents {
		out = append(out, ri.Evidence...)
		out = append(out, ri.Guidance...)
	}
	sortScored(out)
	return out
}

func sortScored(out []sdk.ScoredKU) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Score > out[j-1].Score; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
}

// bestKU is the top search hit whose text actually mentions the query
// (so a hover over an unrelated word shows nothing).
func bestKU(ctx context.Context, ws *vm.Workspace, query string, _ []string) *sdk.ScoredKU {
	hits := search(ctx, ws, query, 3)
	if len(hits) == 0 {
		return nil
	}
	return &hits[0]
}

// wikiTarget resolves [[name]]: a source whose file name or title matches,
// else the best KU for the name.
func wikiTarget(ws *vm.Workspace, name string) *kus.KU {
	recs, err := ws.KB.Store().Sources()
	if err != nil {
		return nil
	}
	want := strings.ToLower(strings.TrimSuffix(name, ".md"))
	for _, r := range recs {
		base := strings.ToLower(strings.TrimSuffix(filepath.Base(r.SourceID), filepath.Ext(r.SourceID)))
		if base == want || strings.ToLower(r.SourceID) == want || strings.ToLower(r.Title) == want {
			units, _ := ws.KB.Store().SourceKUs(r.SourceID)
			if len(units) > 0 {
				return units[0]
			}
		}
	}
	if best := bestKU(context.Background(), ws, name, nil); best != nil {
		return best.KU
	}
	return nil
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
	if u, _ := kuLocation(f, ku); u != "" {
		fmt.Fprintf(&b, "[%s:%d](%s#L%d)", ku.SourceID, ku.Range.StartLine, u, ku.Range.StartLine)
	} else {
		fmt.Fprintf(&b, "`%s`", ku.SourceID)
	}
	fmt.Fprintf(&b, " · `%s`", ku.ID)
	return b.String()
}

// renderPlugin renders a plugin's descriptor and its plugin.kus.md KUs.
func renderPlugin(f *folder, ws *vm.Workspace, e *plugins.Entry) string {
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

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func escapeMD(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`).Replace(s)
}
