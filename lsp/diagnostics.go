package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/markdown/links"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/jsonpos"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
	"github.com/mrpvm/mrpvm/workspace"
)

// MaxDiagnosedBytes bounds the documents that are checked: a larger one
// gets a single doc_too_large hint instead (ingest skips such files too).
const MaxDiagnosedBytes = 8 << 20

// SOPExt is the extension of SOP Lang documents; Markdown files may also
// hold SOP in fenced code blocks whose info string is "sop".
const SOPExt = ".sop"

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
	if path == "" || !diagnosable(path) && !s.configFile(path) {
		return
	}
	s.debounce(&s.dtimers, u, func() { s.refreshDiagnostics(u) })
}

// refreshDiagnostics computes and publishes u's diagnostics, one run per
// URI at a time (serialRuns): the last diagnostics a client receives for u
// are computed after the last request for them, and a slow run started
// before a change (a link target deleted) cannot publish its stale result
// after the fresh one.
func (s *Server) refreshDiagnostics(u string) {
	s.druns.do(u, func() { s.publishDiagnostics(u) })
}

// serialRuns runs a function for a key one call at a time. A call that
// arrives while a run for its key is under way does not run beside it:
// it makes that run go once more when it ends, so every call is followed
// by a run that starts after it, and calls in a burst share one rerun.
type serialRuns struct {
	mu    sync.Mutex
	again map[string]*bool // the keys running, and whether to run again
}

func (r *serialRuns) do(key string, fn func()) {
	r.mu.Lock()
	if again := r.again[key]; again != nil {
		*again = true
		r.mu.Unlock()
		return
	}
	if r.again == nil {
		r.again = map[string]*bool{}
	}
	again := new(bool)
	r.again[key] = again
	r.mu.Unlock()
	for {
		fn()
		r.mu.Lock()
		if !*again {
			delete(r.again, key)
			r.mu.Unlock()
			return
		}
		*again = false
		r.mu.Unlock()
	}
}

// debounce runs fn in the background once the quiet period opt.Debounce
// has passed without another call for key in timers (a map guarded by
// dmu); a call meanwhile starts the period again. Nothing runs once the
// server is shutting down.
func (s *Server) debounce(timers *map[string]*time.Timer, key string, fn func()) {
	s.dmu.Lock()
	defer s.dmu.Unlock()
	if *timers == nil {
		*timers = map[string]*time.Timer{}
	}
	if t := (*timers)[key]; t != nil {
		t.Stop()
	}
	(*timers)[key] = time.AfterFunc(s.opt.Debounce, func() {
		s.dmu.Lock()
		delete(*timers, key)
		s.dmu.Unlock()
		if s.ctx.Err() != nil {
			return
		}
		s.goBG(fn)
	})
}

func diagnosable(path string) bool {
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	return base == "plugin.json" || isWrapperManifest(path) || isConfigFile(path) ||
		strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, SOPExt)
}

// isWrapperManifest reports whether path is <root>/wrappers/<id>/manifest.json,
// where wrapper discovery looks (other manifest.json files are not ours).
func isWrapperManifest(path string) bool {
	return filepath.Base(path) == wrapper.ManifestFile && filepath.Base(filepath.Dir(filepath.Dir(path))) == "wrappers"
}

// isConfigFile reports whether path is one of the configuration files in a
// workspace's .mrpvm folder or in the user configuration folder.
func isConfigFile(path string) bool {
	if !slices.Contains(config.Names, filepath.Base(path)) {
		return false
	}
	dir := filepath.Dir(path)
	if filepath.Base(dir) == config.WorkspaceDir {
		return true
	}
	ud := config.UserDir()
	return ud != "" && sameDir(dir, ud)
}

// configFile reports whether path is a configuration file that some
// folder reads: isConfigFile's, or one in the user configuration folder
// a folder was given (Options.UserDir or the userDir setting).
func (s *Server) configFile(path string) bool {
	if isConfigFile(path) {
		return true
	}
	return s.userConfigFolder(path) != nil
}

// userConfigFolder returns the first folder whose user configuration
// folder holds the configuration file path, or nil.
func (s *Server) userConfigFolder(path string) *folder {
	if !slices.Contains(config.Names, filepath.Base(path)) {
		return nil
	}
	dir := filepath.Dir(path)
	for _, f := range s.folderList() {
		if f.readsUserDir(dir) {
			return f
		}
	}
	return nil
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// diagEnv is what checks beyond the text itself need: the plugin ids that
// exist and, for configuration files, the layer and the user's allowlist.
type diagEnv struct {
	// known maps plugin ids to types (nil: ids are not checked).
	known map[string]plugin.PluginType
	// userDir is the user configuration folder ("" : none).
	userDir string
	// config marks a configuration file found in a folder's own user
	// configuration folder (isConfigFile knows only the default one).
	config bool
	// links is the link index of the document's folder (nil: none).
	links *links.Index
	// userAllow is the wrapper allowlist of the layers below the workspace
	// (embedded defaults and the user's engine.json).
	userAllow []string
	// userErrs are the problems of those layers: what the loader leaves
	// out of the user's engine.json is missing from userAllow.
	userErrs []*config.Error
}

// publishDiagnostics computes one document's diagnostics and sends them.
func (s *Server) publishDiagnostics(u string) {
	text, err := s.readText(u)
	diags := []diagnostic{}
	switch {
	case err == nil:
		path := uriToPath(u)
		env := s.diagEnv(path)
		if f := s.folderFor(path); f != nil && within(f.root, path) {
			select {
			case <-f.linksReady:
				env.links = f.links
			case <-s.ctx.Done():
				return
			}
		}
		diags = computeDiagnostics(path, text, env)
	case errors.Is(err, fsafe.ErrTooLarge):
		diags = append(diags, diagnostic{Severity: 4, Code: "doc_too_large", Source: "mrpvm",
			Message: fmt.Sprintf("the document is over %d bytes; larger documents are not checked", MaxDiagnosedBytes)})
	}
	s.notify("textDocument/publishDiagnostics", map[string]any{"uri": u, "diagnostics": diags})
}

// diagEnv gathers the environment of a document's checks from the folder
// holding it (waiting for its knowledge base to open, at most 5s).
func (s *Server) diagEnv(path string) diagEnv {
	var env diagEnv
	uf := s.userConfigFolder(path)
	if uf == nil && !isConfigFile(path) {
		return env
	}
	env.config = true
	f := s.folderFor(path)
	if f == nil {
		f = uf // a user configuration file: a folder that reads it
	}
	if f == nil {
		f = s.folderFor("")
	}
	user := config.DefaultUserFolder()
	if f != nil {
		user = f.userDir
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		_ = f.withWS(ctx, func(ws *workspace.Workspace) error {
			env.known = map[string]plugin.PluginType{}
			for _, e := range ws.Catalog.Entries {
				env.known[e.Descriptor.ID] = e.Descriptor.Type
			}
			return nil
		})
		cancel()
	}
	env.userDir = user.Dir()
	env.userAllow, env.userErrs = workspace.UserAllowlist(user)
	return env
}

// computeDiagnostics checks a plugin descriptor, a wrapper manifest, a
// plugin.kus.md, a configuration file, a SOP document or a Markdown source
// (with its fenced sop blocks), with the stable codes of the package that
// owns each format.
func computeDiagnostics(path, text string, env diagEnv) []diagnostic {
	out := []diagnostic{}
	if len(text) > MaxDiagnosedBytes {
		return append(out, diagnostic{Range: lineRange(text, 1, 1), Severity: 4, Code: "doc_too_large", Source: "mrpvm",
			Message: fmt.Sprintf("the document has %d bytes; documents over %d bytes are not checked", len(text), MaxDiagnosedBytes)})
	}
	fromPluginErrors := func(errs []*plugin.PluginError) {
		for _, e := range errs {
			sev := 1
			if e.Warning {
				sev = 2
			}
			msg := e.Message
			if e.Stage != "" {
				msg += " (stage " + string(e.Stage) + ")"
			}
			out = append(out, diagnostic{Range: lineRange(text, e.Line, e.Col), Severity: sev, Code: e.Code, Source: "mrpvm", Message: msg})
		}
	}
	base := filepath.Base(path)
	switch {
	case base == "plugin.json":
		_, errs := plugin.ParseDescriptor([]byte(text), path)
		fromPluginErrors(errs)
	case isWrapperManifest(path):
		// The editor's text, checked as if saved at path (the command and
		// sandbox paths are resolved against the wrapper folder).
		_, errs := wrapper.ParseManifest([]byte(text), path)
		fromPluginErrors(errs)
	case env.config || isConfigFile(path):
		out = append(out, configDiagnostics(path, text, env)...)
	case base == "plugin.kus.md":
		id := filepath.Base(filepath.Dir(path))
		fromPluginErrors(plugins.CheckKUs(id, []byte(text), path))
	case strings.HasSuffix(strings.ToLower(base), SOPExt):
		out = append(out, sopDiagnostics(text, text, 1, 1)...)
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
		for _, b := range sopBlocks(text) {
			out = append(out, sopDiagnostics(text, b.body, b.line+2, b.line+1)...)
		}
		out = append(out, linkDiagnostics(path, text, env.links)...)
	}
	return out
}

// configDiagnostics checks one layer of plugins.json, engine.json or
// llm-role-settings.json with the config package's rules; a workspace
// engine.json that widens the user's wrapper allowlist gets the same
// config_workspace_cannot_widen warning the loader reports.
func configDiagnostics(path, text string, env diagEnv) []diagnostic {
	name := filepath.Base(path)
	kind := config.LayerWorkspace
	if env.userDir != "" && sameDir(filepath.Dir(path), env.userDir) && filepath.Base(filepath.Dir(path)) != config.WorkspaceDir {
		kind = config.LayerUser
	}
	errs := config.CheckFile(name, kind, path, []byte(text), env.known)
	if kind == config.LayerWorkspace && name == config.EngineFile {
		errs = append(errs, userEngineErrors(path, env)...)
		errs = append(errs, wideningErrors(path, text, env)...)
	}
	out := make([]diagnostic, 0, len(errs))
	for _, e := range errs {
		sev := 1
		if e.Warning {
			sev = 2
		}
		out = append(out, diagnostic{Range: lineRange(text, e.Line, e.Col), Severity: sev, Code: e.Code, Source: "mrpvm", Message: e.Message})
	}
	return out
}

// userEngineErrors reports, on a workspace engine.json at line 1, the
// errors of the user's engine.json: the loader leaves out what it cannot
// read there (the whole file on a syntax error), so the allowlist this file
// narrows may lack entries until the user's file is fixed. Each keeps the
// user file's code and says where it is.
func userEngineErrors(path string, env diagEnv) []*config.Error {
	var out []*config.Error
	for _, e := range env.userErrs {
		if e.Warning || filepath.Base(e.File) != config.EngineFile {
			continue
		}
		out = append(out, &config.Error{File: path, Line: 1, Col: 1, Code: e.Code, Warning: true,
			Message: fmt.Sprintf("the user's engine.json has an error, and the allowlist this file narrows lacks what the loader leaves out: %s:%d:%d: %s",
				e.File, e.Line, e.Col, e.Message)})
	}
	return out
}

// wideningErrors flags the entries of a workspace pluginAllowlist that the
// user's allowlist does not hold (the loader drops them).
func wideningErrors(path, text string, env diagEnv) []*config.Error {
	ix, err := jsonpos.Parse([]byte(text))
	if err != nil {
		return nil
	}
	var out []*config.Error
	for i := 0; ; i++ {
		ptr := jsonpos.Pointer("pluginAllowlist", strconv.Itoa(i))
		n, ok := ix.Lookup(ptr)
		if !ok {
			break
		}
		var id string
		if json.Unmarshal(n.Raw, &id) != nil || slices.Contains(env.userAllow, id) {
			continue
		}
		line, col := ix.KeyPos(ptr)
		where := "the user's engine.json"
		if env.userDir != "" {
			where = filepath.Join(env.userDir, config.EngineFile)
		}
		out = append(out, &config.Error{File: path, Line: line, Col: col, Code: config.CodeWorkspaceWidening, Pointer: ptr, Warning: true,
			Message: fmt.Sprintf("%s is not in the user's allowlist (%s); a workspace can only narrow the allowlist, never widen it", id, where)})
	}
	return out
}

// sopBlock is the body of one fenced ```sop block of a Markdown document.
type sopBlock struct {
	line int // 0-based line of the fence that opens the block
	body string
}

// sopBlocks finds the fenced code blocks whose info string starts with
// "sop" (``` or ~~~ fences, up to three spaces of indentation).
func sopBlocks(text string) []sopBlock {
	var out []sopBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		fence, info, ok := openFence(lines[i])
		if !ok {
			continue
		}
		start := i
		var body []string
		for i++; i < len(lines); i++ {
			if closesFence(lines[i], fence) {
				break
			}
			body = append(body, strings.TrimSuffix(lines[i], "\r"))
		}
		if word, _, _ := strings.Cut(info, " "); strings.EqualFold(word, "sop") {
			out = append(out, sopBlock{line: start, body: strings.Join(body, "\n")})
		}
	}
	return out
}

// openFence reports whether line opens a fenced code block, returning the
// fence (``` or ~~~ and longer) and the info string.
func openFence(line string) (fence, info string, ok bool) {
	t := strings.TrimRight(line, "\r")
	ind := len(t) - len(strings.TrimLeft(t, " "))
	if ind > 3 {
		return "", "", false
	}
	t = t[ind:]
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(t[n:])
	if t[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	return t[:n], info, true
}

func closesFence(line, fence string) bool {
	t := strings.TrimSpace(line)
	if len(t) < len(fence) || t[0] != fence[0] {
		return false
	}
	return strings.Trim(t, fence[:1]) == ""
}

// sopDiagnostics interprets a SOP document and maps its errors to ranges
// of text: body starts on 1-based line bodyLine of text, and errors about
// the whole document go to line docLine (the opening fence of a block).
func sopDiagnostics(text, body string, bodyLine, docLine int) []diagnostic {
	_, err := sop.Interpret(body)
	if err == nil {
		return nil
	}
	errs := sop.AsErrors(err)
	if errs == nil {
		errs = sop.Errors{{Code: sop.CodeSyntax, Msg: err.Error()}}
	}
	out := make([]diagnostic, 0, len(errs))
	for _, e := range errs {
		r := lineRange(text, docLine, 1)
		if e.Line > 0 {
			r = lineRange(text, bodyLine+e.Line-1, max(e.Col, 1))
		}
		msg := e.Msg
		if e.ID != "" {
			msg = "@" + e.ID + ": " + msg
		}
		out = append(out, diagnostic{Range: r, Severity: 1, Code: string(e.Code), Source: "mrpvm", Message: msg})
	}
	return out
}

// linkDiagnostics reports the broken links of a Markdown document: missing
// files (hints, code broken_link), wiki links that match no file, anchors
// that name no heading and links that climb out of the workspace
// (warnings). ix is the link index of the document's folder; without one
// (a file outside every folder) only missing files are reported.
func linkDiagnostics(path, text string, ix *links.Index) []diagnostic {
	inFolder := ix != nil
	if !inFolder {
		ix = links.New(filepath.VolumeName(path) + string(filepath.Separator))
	}
	rel, ok := ix.Rel(path)
	if !ok {
		return nil
	}
	// A file the folder's index does not hold is checked beside it, never
	// added to it: the text may have been read just before the file was
	// deleted, and the index follows the files' events alone.
	var problems []links.Problem
	if inFolder && ix.File(rel) != nil {
		problems = ix.Problems(rel)
	} else {
		problems = ix.ProblemsIn(rel, text)
	}
	var out []diagnostic
	for _, p := range problems {
		sev := 2
		rng := spanRange(p.Link.Whole)
		switch p.Code {
		case links.CodeBrokenLink:
			sev = 4
			rng = spanRange(p.Link.TargetSpan)
		case links.CodeBrokenAnchor:
			rng = spanRange(p.Link.AnchorSpan)
		}
		if !inFolder && p.Code != links.CodeBrokenLink {
			continue
		}
		out = append(out, diagnostic{Range: rng, Severity: sev, Code: p.Code, Source: "mrpvm", Message: p.Message})
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
