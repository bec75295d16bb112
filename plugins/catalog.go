package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
)

// Origins of catalog entries.
const (
	OriginBuiltin = "builtin"
	OriginWrapper = "wrapper"
)

// Wrappers are the wrapper plugins found before the configuration is read
// (its plugin ids are checked against them). Those of the user's folder
// load first and own their ids, so a workspace can never take one over.
type Wrappers struct {
	user, workspace []*wrapper.Manifest
	userIDs         map[string]bool // ids of the user's folder, manifests that failed too
	userDir         string
	problems        []*plugin.PluginError
}

// DiscoverWrappers finds the wrappers in the user folder's wrappers/ and
// the workspace's wrappers/ (workspace "" : none). It reads manifests only;
// nothing runs.
func DiscoverWrappers(workspace string, user config.UserFolder) *Wrappers {
	w := &Wrappers{userIDs: map[string]bool{}, userDir: user.Dir()}
	if w.userDir != "" {
		var problems []*plugin.PluginError
		w.user, problems = wrapper.Discover(filepath.Join(w.userDir, "wrappers"))
		w.problems = append(w.problems, problems...)
		for _, p := range problems {
			if p.ID != "" {
				w.userIDs[p.ID] = true
			}
		}
	}
	if workspace != "" {
		var problems []*plugin.PluginError
		w.workspace, problems = wrapper.Discover(filepath.Join(workspace, "wrappers"))
		w.problems = append(w.problems, problems...)
	}
	for _, m := range w.user {
		w.userIDs[m.Descriptor.ID] = true
	}
	return w
}

// Known maps every plugin id that exists, the registered built-ins and the
// discovered wrappers (w may be nil: none), to its type; it is what
// config.Options.Known wants.
func (w *Wrappers) Known() map[string]plugin.PluginType {
	known := map[string]plugin.PluginType{}
	for _, b := range Builtins() {
		known[b.Descriptor.ID] = b.Descriptor.Type
	}
	for _, m := range w.all() {
		if _, ok := known[m.Descriptor.ID]; !ok {
			known[m.Descriptor.ID] = m.Descriptor.Type
		}
	}
	return known
}

// all lists the user's wrappers, then the workspace's.
func (w *Wrappers) all() []*wrapper.Manifest {
	if w == nil {
		return nil
	}
	return slices.Concat(w.user, w.workspace)
}

// CatalogOptions are what a catalog is built from: a loaded configuration
// and the services to inject.
type CatalogOptions struct {
	// Workspace is the workspace folder (plugin.Env.Workspace when Env is
	// nil). May be empty.
	Workspace string
	// Config is the loaded configuration (config.Load, with Known from
	// Wrappers); nil: config.Default().
	Config *config.Config
	// ConfigErrors are the errors its load reported; each becomes a
	// problem of the catalog.
	ConfigErrors []*config.Error
	// Wrappers are the wrappers discovered before the load; nil: none.
	// Only the user folder's engine.json allowlist can admit one.
	Wrappers *Wrappers
	// Env returns the services for one plugin (its store namespace, the LLM
	// bridge, ...). Fields it leaves zero are filled: PluginID, the model
	// settings from llm-role-settings.json, and Logger.
	Env func(d plugin.Descriptor) plugin.Env
	// Logger receives one line per problem; nil discards.
	Logger *slog.Logger
}

// Entry is one plugin the catalog knows: every registered built-in and
// every discovered wrapper, loaded or not.
type Entry struct {
	Descriptor plugin.Descriptor
	Origin     string // OriginBuiltin or OriginWrapper
	Ref        string // plugin.json (module-relative) or manifest path
	Enabled    bool   // plugins.json enables it (wrappers: allowlisted and not disabled)
	Loaded     bool   // instantiated and registered
	KUs        []byte // plugin.kus.md of a built-in
	Problems   []*plugin.PluginError
}

// Catalog is the result of booting the plugin system: a registry holding
// every enabled plugin that loaded, the configuration it was built from, and
// every problem met on the way. A failing plugin is left out; it never
// stops the others.
type Catalog struct {
	Registry *Registry
	Config   *config.Config
	Entries  []*Entry
	// Problems lists configuration errors, built-in registration errors,
	// wrapper manifest problems, allowlist refusals and factory failures.
	// Those marked Warning are skips by design (not allowlisted,
	// unsupported protocol version, ignored workspace settings).
	Problems []*plugin.PluginError
	helpers  *wrapper.HelperSet
	closers  []plugin.Closer
}

// NewCatalog instantiates each enabled built-in with its options and each
// allowlisted wrapper of the configuration it is given, and registers them.
// It never reads the configuration files.
func NewCatalog(opt CatalogOptions) *Catalog {
	c := &Catalog{Registry: NewRegistry(), helpers: wrapper.NewHelperSet()}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg := opt.Config
	if cfg == nil {
		cfg = config.Default()
	}
	c.Config = cfg
	c.Problems = append(c.Problems, BuiltinProblems()...)
	wrappers := opt.Wrappers
	if wrappers == nil {
		wrappers = &Wrappers{}
	}
	c.Problems = append(c.Problems, wrappers.problems...)
	for _, e := range opt.ConfigErrors {
		c.Problems = append(c.Problems, &plugin.PluginError{Ref: e.File, File: e.File, Line: e.Line, Col: e.Col,
			Stage: plugin.StageLoad, Code: e.Code, Message: e.Message, Warning: e.Warning})
	}
	ms := cfg.ModelSettings()
	env := func(d plugin.Descriptor) plugin.Env {
		e := plugin.Env{PluginID: d.ID, Workspace: opt.Workspace}
		if opt.Env != nil {
			e = opt.Env(d)
		}
		// What the caller left out comes from the configuration.
		if e.PluginID == "" {
			e.PluginID = d.ID
		}
		if e.ModelSettings.Roles == nil && e.ModelSettings.PluginOverrides == nil {
			e.ModelSettings = ms
		}
		if e.Logger == nil {
			e.Logger = log.With("plugin", d.ID)
		}
		return e
	}

	for _, b := range Builtins() {
		e := &Entry{Descriptor: b.Descriptor, Origin: OriginBuiltin, Ref: b.Ref, KUs: b.KUs, Enabled: cfg.PluginEnabled(b.Descriptor.ID)}
		c.Entries = append(c.Entries, e)
		e.Problems = append(e.Problems, CheckKUs(b.Descriptor.ID, b.KUs, kusRef(b.Ref))...)
		if !e.Enabled {
			continue
		}
		p, err := c.instantiate(b, cfg, env(b.Descriptor))
		if err != nil {
			e.Problems = append(e.Problems, err)
			continue
		}
		if err := c.Registry.RegisterRef(p, b.Ref); err != nil {
			e.Problems = append(e.Problems, asPluginError(err, b.Ref, b.Descriptor.ID))
			continue
		}
		e.Loaded = true
		if cl, ok := p.(plugin.Closer); ok {
			c.closers = append(c.closers, cl)
		}
	}

	limits := wrapper.Limits{TimeoutMs: cfg.Engine.WrapperTimeoutMs, MaxInputBytes: cfg.Engine.WrapperMaxInputBytes,
		MaxOutputBytes: cfg.Engine.WrapperMaxOutputBytes}
	for _, m := range wrappers.all() {
		id := m.Descriptor.ID
		inUserDir := slices.Contains(wrappers.user, m)
		e := &Entry{Descriptor: m.Descriptor, Origin: OriginWrapper, Ref: m.File}
		c.Entries = append(c.Entries, e)
		if !inUserDir && wrappers.userIDs[id] {
			e.Problems = append(e.Problems, &plugin.PluginError{Ref: m.File, File: m.File, ID: id, Stage: plugin.StageLoad,
				Code: plugin.CodeWrapperIDTaken, Warning: true,
				Message: fmt.Sprintf("wrapper %q of the workspace has the id of a wrapper in the user's folder (%s); it never runs, the user's wrapper keeps the id",
					id, filepath.Join(wrappers.userDir, "wrappers"))})
			continue
		}
		pin, ok, why := admit(cfg.Engine.PluginAllowlist, m, inUserDir)
		if !ok {
			e.Problems = append(e.Problems, &plugin.PluginError{Ref: m.File, ID: id, Stage: plugin.StageLoad,
				Code: plugin.CodeNotAllowlisted, Warning: true, Message: why(userEngineFile(wrappers.userDir))})
			continue
		}
		if s, listed := cfg.Plugins.Plugins[id]; listed && !s.Enabled {
			continue // allowlisted but switched off in plugins.json
		}
		e.Enabled = true
		p := wrapper.New(m, limits)
		r, isWrapper := wrapper.RunnerOf(p)
		if isWrapper && pin != "" {
			r.Pin(pin)
		}
		if err := c.Registry.RegisterRef(p, m.File); err != nil {
			e.Problems = append(e.Problems, asPluginError(err, m.File, id))
			continue
		}
		e.Loaded = true
		if isWrapper {
			c.helpers.Add(r)
		}
	}

	for _, e := range c.Entries {
		c.Problems = append(c.Problems, e.Problems...)
	}
	for _, p := range c.Problems {
		level := slog.LevelError
		if p.Warning {
			level = slog.LevelWarn
		}
		log.Log(context.Background(), level, p.Error(), "code", p.Code, "plugin", p.ID, "stage", string(p.Stage))
	}
	return c
}

// admit decides whether the allowlist lets wrapper m run. An id alone
// admits only a wrapper of the user's folder (inUserDir); any other wrapper
// needs an entry bound to its folder or its fingerprint. pin is the
// fingerprint the runner must keep checking, when an entry bound it so.
// why renders the refusal, given the user's engine.json.
func admit(list config.Allowlist, m *wrapper.Manifest, inUserDir bool) (pin string, ok bool, why func(engineFile string) string) {
	id := m.Descriptor.ID
	entries := list.For(id)
	fp := ""
	for _, a := range entries {
		if !a.Bound() {
			if inUserDir {
				return "", true, nil
			}
			continue
		}
		if a.Dir != "" && !wrapper.SameDir(a.Dir, m.Dir) {
			continue
		}
		if a.SHA256 != "" {
			if fp == "" {
				var err error
				if fp, err = wrapper.Fingerprint(m); err != nil {
					continue
				}
			}
			if fp != a.SHA256 {
				continue
			}
			return fp, true, nil
		}
		return "", true, nil
	}
	return "", false, func(engineFile string) string {
		if inUserDir {
			return fmt.Sprintf("wrapper %q is not in the pluginAllowlist of %s; add its id there to run it", id, engineFile)
		}
		bind := fmt.Sprintf(`{"id": %q, "dir": %q}`, id, m.Dir)
		if sum, err := wrapper.Fingerprint(m); err == nil {
			bind += fmt.Sprintf(` (trusts the folder) or {"id": %q, "sha256": %q} (trusts these exact files)`, id, sum)
		}
		if len(entries) > 0 {
			return fmt.Sprintf("wrapper %q lies outside the user's folder and no pluginAllowlist entry of %s is bound to it "+
				"(an id alone admits only the user's own wrapper); to run it add %s", id, engineFile, bind)
		}
		return fmt.Sprintf("wrapper %q is not in the pluginAllowlist of %s; to run it add %s", id, engineFile, bind)
	}
}

func userEngineFile(userDir string) string {
	if userDir == "" {
		return "the user's engine.json (no user configuration folder)"
	}
	return filepath.Join(userDir, config.EngineFile)
}

func kusRef(descriptorRef string) string {
	return filepath.ToSlash(filepath.Join(filepath.Dir(descriptorRef), "plugin.kus.md"))
}

// instantiate calls a built-in's factory, turning errors and panics into
// load problems that point at the plugin's options in plugins.json.
func (c *Catalog) instantiate(b BuiltinInfo, cfg *config.Config, env plugin.Env) (p plugin.Plugin, perr *plugin.PluginError) {
	id := b.Descriptor.ID
	fail := func(code, msg string) *plugin.PluginError {
		pe := &plugin.PluginError{Ref: b.Ref, ID: id, Stage: plugin.StageLoad, Code: code, Message: msg}
		ptr := "/plugins/" + id + "/options"
		pos, ok := cfg.Pos(config.PluginsFile, ptr)
		if !ok {
			pos, ok = cfg.Pos(config.PluginsFile, "/plugins/"+id)
		}
		if ok {
			pe.File, pe.Line, pe.Col = pos.File, pos.Line, pos.Col
		}
		return pe
	}
	defer func() {
		if r := recover(); r != nil {
			p, perr = nil, fail(plugin.CodePluginFactory, fmt.Sprintf("factory panicked: %v", r))
		}
	}()
	opts := cfg.PluginOptions(id)
	if opts == nil {
		opts = json.RawMessage("{}")
	}
	p, err := b.New(opts, env)
	if err != nil {
		code := plugin.CodePluginFactory
		var se *plugin.Error
		if errors.As(err, &se) {
			code = se.Code
		}
		return nil, fail(code, err.Error())
	}
	if p == nil {
		return nil, fail(plugin.CodePluginFactory, "factory returned no plugin")
	}
	if d := p.Descriptor(); d.ID != id || d.Type != b.Descriptor.Type {
		return nil, fail(plugin.CodePluginTypeMismatch, fmt.Sprintf("factory made %s %q, but plugin.json declares %s %q", d.Type, d.ID, b.Descriptor.Type, id))
	}
	return p, nil
}

func asPluginError(err error, ref, id string) *plugin.PluginError {
	var pe *plugin.PluginError
	if errors.As(err, &pe) {
		return pe
	}
	return &plugin.PluginError{Ref: ref, ID: id, Stage: plugin.StageRegister, Code: plugin.CodePluginFailed, Message: err.Error()}
}

// Entry returns the entry of a plugin id.
func (c *Catalog) Entry(id string) (*Entry, bool) {
	for _, e := range c.Entries {
		if e.Descriptor.ID == id {
			return e, true
		}
	}
	return nil, false
}

// Order returns the plugins to try at a loop stage (plugin.LoopKB, ...): the
// configured default order restricted to loaded plugins of the stage's
// family, followed by the other loaded plugins of that family (wrappers,
// plugins left out of the order) in registration order.
func (c *Catalog) Order(stage string) []string {
	t := plugin.TypeOfLoopStage(stage)
	if t == "" {
		return nil
	}
	var out []string
	for _, id := range c.Config.Order(stage) {
		if c.Registry.Get(t, id) != nil && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, d := range c.Registry.ListByType(t) {
		if !slices.Contains(out, d.ID) {
			out = append(out, d.ID)
		}
	}
	return out
}

// PlannerOrder returns engine.json's plannerFallbackOrder restricted to
// loaded planners, then the other loaded planners.
func (c *Catalog) PlannerOrder() []string {
	var out []string
	for _, id := range c.Config.Engine.PlannerFallbackOrder {
		if c.Registry.Get(plugin.TypePlan, id) != nil && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, id := range c.Order(plugin.LoopPlanner) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Fallbacks returns the loaded plugins of id's fallback chain, in order.
func (c *Catalog) Fallbacks(id string) []string {
	p, ok := c.Registry.Lookup(id)
	if !ok {
		return nil
	}
	t := p.Descriptor().Type
	var out []string
	for _, f := range c.Config.Plugins.FallbackChains[id] {
		if c.Registry.Get(t, f) != nil {
			out = append(out, f)
		}
	}
	return out
}

// Candidates returns the descriptors of the loaded plugins of every family
// in stage order, as a planner's PlanInput.Candidates.
func (c *Catalog) Candidates() map[plugin.PluginType][]plugin.Descriptor {
	out := map[plugin.PluginType][]plugin.Descriptor{}
	for _, stage := range plugin.LoopStages {
		t := plugin.TypeOfLoopStage(stage)
		for _, id := range c.Order(stage) {
			if p, ok := c.Registry.Lookup(id); ok {
				out[t] = append(out[t], p.Descriptor())
			}
		}
	}
	return out
}

// Helpers returns the loaded wrappers as externalHelpers.
func (c *Catalog) Helpers() plugin.Helpers { return c.helpers }

// KUSource is one plugin.kus.md to ingest as source plugin::<id>.
type KUSource struct {
	ID   string // plugin::<id>
	Name string // <id>/plugin.kus.md
	Text []byte
}

// KUSources returns the plugin.kus.md of every loaded built-in, for the
// ingest pipeline to commit as virtual sources.
func (c *Catalog) KUSources() []KUSource {
	var out []KUSource
	for _, e := range c.Entries {
		if e.Origin == OriginBuiltin && e.Loaded && len(e.KUs) > 0 {
			out = append(out, KUSource{ID: KUSourceID(e.Descriptor.ID), Name: e.Descriptor.ID + "/plugin.kus.md", Text: e.KUs})
		}
	}
	return out
}

// Errors returns the problems that are not warnings.
func (c *Catalog) Errors() []*plugin.PluginError {
	var out []*plugin.PluginError
	for _, p := range c.Problems {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Close closes every plugin holding resources.
func (c *Catalog) Close() error {
	var errs []error
	for _, cl := range c.closers {
		errs = append(errs, cl.Close())
	}
	c.closers = nil
	return errors.Join(errs...)
}
