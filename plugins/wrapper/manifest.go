// Package wrapper loads and runs external wrapper plugins (docs/wrappers.md): a folder holding manifest.json, an executable and a
// README. A wrapper is discovered in <workspace>/wrappers/*/ or in the user
// configuration folder's wrappers/*/, validated, and run only when its id is
// in the effective pluginAllowlist (decided by the caller). Each call starts
// one process in the wrapper's folder, writes the JSON payload
// {"prompt", "context": [{"title", "sourceLink", "text"}]} to its stdin
// then closes it, reads a `## Plugin Result` block from stdout and one JSON
// error line {code, message, details} from stderr. Exit status 0 is success,
// 1 a processing error, 2 invalid input, 3 a timeout. The call's timeout
// kills the whole process group; input and output sizes are capped.
package wrapper

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// ManifestFile is the name of a wrapper's manifest.
const ManifestFile = "manifest.json"

// ProtocolVersion is the only wrapper protocol version this build speaks.
const ProtocolVersion = 1

// DefaultMaxInputBytes caps the payload when neither the manifest nor the
// engine sets a limit.
const DefaultMaxInputBytes = 65536

// Manifest is a validated wrapper manifest.
type Manifest struct {
	// Descriptor is the plugin descriptor after normalization: legacy name
	// as id, gs-plugin as default type, implied plannerHints. Its Extra
	// keeps the wrapper keys (command, args, ...) and any unknown key.
	Descriptor        plugin.Descriptor
	Dir               string // absolute wrapper folder
	File              string // manifest path
	ProtocolVersion   int
	Command           string // as written
	Args              []string
	Path              string // resolved executable
	TimeoutMs         int    // 0: the engine's wrapperTimeoutMs
	MaxInputSizeBytes int    // 0: the engine's wrapperMaxInputBytes
	Capabilities      []string
	Keywords          []string
	Priority          int
}

// Ref is the plugin reference used in errors: the manifest path.
func (m *Manifest) Ref() string { return m.File }

// wrapperFields are the manifest keys beyond the descriptor.
type wrapperFields struct {
	ProtocolVersion   *int     `json:"protocolVersion"`
	Command           string   `json:"command"`
	Args              []string `json:"args"`
	Timeout           int      `json:"timeout"` // legacy name of timeoutMs
	MaxInputSizeBytes int      `json:"maxInputSizeBytes"`
	Capabilities      []string `json:"capabilities"`
	Keywords          []string `json:"keywords"`
	Priority          int      `json:"priority"`
}

// Discover loads every <root>/*/manifest.json, in root order then folder
// name order. Missing roots are skipped. Each manifest that fails is
// reported and left out; the others still load.
func Discover(roots ...string) ([]*Manifest, []*plugin.PluginError) {
	var out []*Manifest
	var problems []*plugin.PluginError
	for _, root := range roots {
		if root == "" {
			continue
		}
		entries, err := os.ReadDir(root)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, &plugin.PluginError{Ref: root, File: root, Stage: plugin.StageLoad,
					Code: plugin.CodeManifestInvalid, Message: err.Error()})
			}
			continue
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			path := filepath.Join(root, e.Name(), ManifestFile)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			m, errs := LoadManifestIn(root, path)
			problems = append(problems, errs...)
			if m != nil {
				out = append(out, m)
			}
		}
	}
	return out, problems
}

// LoadManifest reads and validates one manifest. It returns nil and the
// problems when the wrapper cannot be used; warnings (an unsupported
// protocol version) also return nil, marked Warning.
func LoadManifest(path string) (*Manifest, []*plugin.PluginError) {
	return LoadManifestIn("", path)
}

// LoadManifestIn is LoadManifest for a manifest that must resolve inside
// the folder root ("" : anywhere). A manifest that is not a regular file,
// resolves outside root or is over fsafe.MaxConfigBytes is refused with
// the fsafe code, unread.
func LoadManifestIn(root, path string) (*Manifest, []*plugin.PluginError) {
	abs, err := filepath.Abs(path)
	if err == nil {
		path = abs
	}
	data, err := fsafe.ReadFile(root, path, fsafe.MaxConfigBytes)
	if err != nil {
		return nil, []*plugin.PluginError{{Ref: path, File: path, Stage: plugin.StageLoad, Code: fsafe.CodeOr(err, plugin.CodeManifestInvalid), Message: err.Error()}}
	}
	return ParseManifest(data, path)
}

// ParseManifest validates manifest text read from path (its folder is the
// wrapper folder).
func ParseManifest(data []byte, path string) (*Manifest, []*plugin.PluginError) {
	loc := plugin.NewLocator(data, path)
	fail := func(errs []*plugin.PluginError) (*Manifest, []*plugin.PluginError) {
		for _, e := range errs {
			e.Ref = path
			loc.Place(e)
		}
		return nil, errs
	}
	if pe := loc.Syntax(plugin.CodeManifestInvalid); pe != nil {
		return fail([]*plugin.PluginError{pe})
	}
	if t := strings.TrimSpace(string(data)); !strings.HasPrefix(t, "{") {
		return fail([]*plugin.PluginError{{Stage: plugin.StageLoad, Code: plugin.CodeManifestInvalid, Message: "a manifest must be a JSON object"}})
	}
	var d plugin.Descriptor
	var w wrapperFields
	var errs []*plugin.PluginError
	collect := func(err error) {
		var fe plugin.FieldErrors
		if errors.As(err, &fe) {
			for _, e := range fe {
				e.Code = plugin.CodeManifestInvalid
				errs = append(errs, e)
			}
		} else if err != nil {
			errs = append(errs, &plugin.PluginError{Stage: plugin.StageLoad, Code: plugin.CodeManifestInvalid, Message: err.Error()})
		}
	}
	collect(d.UnmarshalJSON(data))
	_, err := plugin.DecodeObject(data, &w, plugin.CodeManifestInvalid)
	collect(err)
	if len(errs) > 0 {
		return fail(errs)
	}
	id := func(e *plugin.PluginError) *plugin.PluginError { e.ID = d.ID; return e }

	// Protocol version first: a wrapper for another protocol is skipped
	// with a warning, whatever else it says.
	switch {
	case w.ProtocolVersion == nil:
		normalizeID(&d)
		return fail([]*plugin.PluginError{id(&plugin.PluginError{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "protocolVersion",
			Message: fmt.Sprintf("protocolVersion is required (this build speaks %d)", ProtocolVersion)})})
	case *w.ProtocolVersion != ProtocolVersion:
		normalizeID(&d)
		return fail([]*plugin.PluginError{id(&plugin.PluginError{Stage: plugin.StageValidate, Code: plugin.CodeUnsupportedProtocolVersion,
			Field: "protocolVersion", Warning: true,
			Message: fmt.Sprintf("protocolVersion %d is not supported (this build speaks %d); wrapper skipped", *w.ProtocolVersion, ProtocolVersion)})})
	}

	m := &Manifest{Dir: filepath.Dir(path), File: path, ProtocolVersion: *w.ProtocolVersion, Command: w.Command,
		Args: w.Args, TimeoutMs: d.TimeoutMs, MaxInputSizeBytes: w.MaxInputSizeBytes,
		Capabilities: w.Capabilities, Keywords: w.Keywords, Priority: w.Priority}
	if m.TimeoutMs == 0 {
		m.TimeoutMs = w.Timeout
	}
	normalize(&d, &w, m)
	m.Descriptor = d

	if w.Timeout < 0 {
		errs = append(errs, id(&plugin.PluginError{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "timeout", Message: "timeout must not be negative"}))
	}
	if w.MaxInputSizeBytes < 0 {
		errs = append(errs, id(&plugin.PluginError{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "maxInputSizeBytes", Message: "maxInputSizeBytes must not be negative"}))
	}
	problems := d.Validate()
	for _, de := range problems {
		if de.Code == plugin.CodeDescriptorBadType {
			// A type this build does not know (a newer protocol's family):
			// the wrapper is skipped with a structured warning, whatever
			// else its manifest says, never reported as broken.
			de.Code, de.Warning, de.ID = plugin.CodeUnknownPluginType, true, d.ID
			de.Message += "; wrapper skipped"
			return fail([]*plugin.PluginError{de})
		}
	}
	for _, de := range problems {
		switch de.Code {
		default:
			de.Message = de.Code + ": " + de.Message
			de.Code = plugin.CodeManifestInvalid
		}
		errs = append(errs, de)
	}
	errs = append(errs, m.resolveCommand()...)
	for _, e := range errs {
		e.ID = d.ID
	}
	if len(errs) > 0 {
		return fail(errs)
	}
	return m, nil
}

func normalizeID(d *plugin.Descriptor) {
	if d.ID == "" && d.Name != "" {
		d.ID = d.Name
	}
}

// normalize fills what legacy manifests leave out (stage normalize).
func normalize(d *plugin.Descriptor, w *wrapperFields, m *Manifest) {
	normalizeID(d)
	if d.Name == "" {
		d.Name = d.ID
	}
	if d.Type == "" {
		d.Type = plugin.TypeGS // the legacy implicit helper-plugin type
	}
	if d.CostClass == "" {
		d.CostClass = plugin.CostModerate
	}
	if d.TimeoutMs == 0 {
		d.TimeoutMs = w.Timeout
	}
	if !slices.Contains(d.Tags, "wrapper") {
		d.Tags = append(d.Tags, "wrapper")
	}
	if d.PlannerHints == nil && d.Type.NeedsPlannerHints() {
		// Priors implied by the legacy keys: acts among the capabilities,
		// keywords as topics, priority (0-100) as confidence.
		h := &plugin.PlannerHints{ExpectedLatencyMs: 1000, RelativeCost: 0.5, ConfidenceWhenMatched: 0.5,
			PreferredDepth: "medium", SupportedActs: []string{}, TopicTags: slices.Clone(w.Keywords)}
		if h.TopicTags == nil {
			h.TopicTags = []string{}
		}
		if d.TimeoutMs > 0 {
			h.ExpectedLatencyMs = d.TimeoutMs / 4
		}
		for _, c := range w.Capabilities {
			if slices.Contains(kus.Acts, c) {
				h.SupportedActs = append(h.SupportedActs, c)
			}
		}
		if w.Priority > 0 && w.Priority <= 100 {
			h.ConfidenceWhenMatched = float64(w.Priority) / 100
		}
		d.PlannerHints = h
	}
}

// resolveCommand applies the path sandbox: the command and every
// path-like part of the arguments (see argLeaves) may not be absolute or
// contain "..", and a command naming a file is
// resolved (symlinks too) inside the wrapper folder.
func (m *Manifest) resolveCommand() []*plugin.PluginError {
	var errs []*plugin.PluginError
	sandbox := func(field, format string, args ...any) {
		errs = append(errs, &plugin.PluginError{Stage: plugin.StageValidate, Code: plugin.CodePathSandboxViolation,
			Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if strings.TrimSpace(m.Command) == "" {
		return []*plugin.PluginError{{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "command", Message: "command is required"}}
	}
	for i, a := range m.Args {
		if part, bad := argLeaves(a); bad {
			sandbox(fmt.Sprintf("args.%d", i), "argument %q leaves the wrapper folder (%q is absolute, under ~ or contains ..)", a, part)
		}
	}
	switch {
	case strings.Contains(m.Command, ".."):
		sandbox("command", "command %q contains \"..\"", m.Command)
	case isAbs(m.Command):
		sandbox("command", "command %q is an absolute path; name a file inside the wrapper folder or a program on PATH", m.Command)
	}
	if len(errs) > 0 {
		return errs
	}
	dir, err := filepath.EvalSymlinks(m.Dir)
	if err != nil {
		dir = m.Dir
	}
	local := filepath.Join(m.Dir, filepath.FromSlash(m.Command))
	if strings.ContainsAny(m.Command, `/\`) || exists(local) {
		real, err := filepath.EvalSymlinks(local)
		if err != nil {
			return []*plugin.PluginError{{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "command",
				Message: fmt.Sprintf("command %q not found in %s", m.Command, m.Dir)}}
		}
		if rel, err := filepath.Rel(dir, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			sandbox("command", "command %q resolves to %s, outside the wrapper folder", m.Command, real)
			return errs
		}
		if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return []*plugin.PluginError{{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "command",
				Message: fmt.Sprintf("command %q is not an executable file", m.Command)}}
		}
		m.Path = real
		return nil
	}
	p, err := exec.LookPath(m.Command)
	if err != nil {
		return []*plugin.PluginError{{Stage: plugin.StageValidate, Code: plugin.CodeManifestInvalid, Field: "command",
			Message: fmt.Sprintf("command %q is neither in the wrapper folder nor on PATH", m.Command)}}
	}
	m.Path = p
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func isAbs(p string) bool {
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) {
		return true
	}
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') // C:
}

func hasDotDot(p string) bool {
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' || r == '=' }) {
		if part == ".." {
			return true
		}
	}
	return false
}
