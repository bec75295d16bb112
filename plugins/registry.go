// Package plugins holds the typed plugin system (docs/contracts.md): the typed
// registry, the table of built-in plugin factories (filled at init time by
// each plugins/<type>/<id> package, database/sql-driver style), the
// config-driven catalog that instantiates enabled built-ins and allowlisted
// external wrappers, and the folder check behind `mrpvm plugins check`.
// The descriptor, family interfaces and result types live in plugins/sdk.
package plugins

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// Aliases for the SDK types most callers of this package need.
type (
	Descriptor   = sdk.Descriptor
	PlannerHints = sdk.PlannerHints
	PluginType   = sdk.PluginType
	Plugin       = sdk.Plugin
	Error        = sdk.PluginError
)

// Registry is the typed plugin registry. Ids are unique across families.
// It is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	byID  map[string]*entry
	order []string // registration order
}

type entry struct {
	plugin sdk.Plugin
	desc   sdk.Descriptor
	ref    string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byID: map[string]*entry{}} }

// Register adds a plugin. See RegisterRef.
func (r *Registry) Register(p sdk.Plugin) error { return r.RegisterRef(p, "") }

// RegisterRef adds a plugin known by ref (its plugin.json or manifest path)
// in errors. It fails, with a *sdk.PluginError of stage register, when the
// descriptor's type is not one of the five families
// (unknown_plugin_type), when the value does not implement its family's
// interface (plugin_type_mismatch), when the descriptor breaks a descriptor rule
// (its descriptor_* code) or when the id is taken (duplicate_plugin_id).
func (r *Registry) RegisterRef(p sdk.Plugin, ref string) error {
	fail := func(id, code, format string, args ...any) error {
		return &sdk.PluginError{Ref: ref, ID: id, Stage: sdk.StageRegister, Code: code, Message: fmt.Sprintf(format, args...)}
	}
	if p == nil {
		return fail("", sdk.CodePluginTypeMismatch, "nil plugin")
	}
	d := p.Descriptor().Clone()
	if !d.Type.Valid() {
		return fail(d.ID, sdk.CodeUnknownPluginType, "type %q is not one of the plugin families (%s)", d.Type, typeNames())
	}
	if !sdk.Implements(p, d.Type) {
		return fail(d.ID, sdk.CodePluginTypeMismatch, "%T declares type %s but does not implement its interface", p, d.Type)
	}
	if errs := d.Validate(); len(errs) > 0 {
		e := errs[0]
		msg := e.Message
		if len(errs) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(errs)-1)
		}
		return &sdk.PluginError{Ref: ref, ID: d.ID, Stage: sdk.StageRegister, Code: e.Code, Field: e.Field, Message: msg}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.byID[d.ID]; ok {
		where := old.ref
		if where == "" {
			where = "another plugin"
		}
		return fail(d.ID, sdk.CodeDuplicatePluginID, "id %q is already registered by %s (%s)", d.ID, where, old.desc.Type)
	}
	r.byID[d.ID] = &entry{plugin: p, desc: d, ref: ref}
	r.order = append(r.order, d.ID)
	return nil
}

// Get returns the plugin of the given type and id, or nil.
func (r *Registry) Get(t sdk.PluginType, id string) sdk.Plugin {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byID[id]
	if !ok || e.desc.Type != t {
		return nil
	}
	return e.plugin
}

// Lookup returns the plugin with the given id, whatever its type.
func (r *Registry) Lookup(id string) (sdk.Plugin, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byID[id]
	if !ok {
		return nil, false
	}
	return e.plugin, true
}

// Ref returns the reference a plugin was registered with.
func (r *Registry) Ref(id string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e, ok := r.byID[id]; ok {
		return e.ref
	}
	return ""
}

// List returns the descriptors of type t, or of every plugin when t is
// empty, in family order (sd, plan, kb, gs, val) then registration order.
func (r *Registry) List(t sdk.PluginType) []sdk.Descriptor {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []sdk.Descriptor
	for _, ft := range sdk.PluginTypes {
		if t != "" && ft != t {
			continue
		}
		for _, id := range r.order {
			if e := r.byID[id]; e.desc.Type == ft {
				out = append(out, e.desc.Clone())
			}
		}
	}
	return out
}

// ListByType returns the descriptors of one family in registration order;
// nil for an unknown type.
func (r *Registry) ListByType(t sdk.PluginType) []sdk.Descriptor {
	if !t.Valid() {
		return nil
	}
	return r.List(t)
}

// Plugins returns the plugins of one family in registration order.
func (r *Registry) Plugins(t sdk.PluginType) []sdk.Plugin {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []sdk.Plugin
	for _, id := range r.order {
		if e := r.byID[id]; e.desc.Type == t {
			out = append(out, e.plugin)
		}
	}
	return out
}

// Len returns the number of registered plugins.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.order)
}

// typed returns the plugin id of family t as its family interface P.
func typed[P sdk.Plugin](r *Registry, t sdk.PluginType, id string) (P, bool) {
	p, ok := r.Get(t, id).(P)
	return p, ok
}

// SD returns the sd-plugin id.
func (r *Registry) SD(id string) (sdk.SDPlugin, bool) { return typed[sdk.SDPlugin](r, sdk.TypeSD, id) }

// Planner returns the mrp-plan-plugin id.
func (r *Registry) Planner(id string) (sdk.PlanPlugin, bool) {
	return typed[sdk.PlanPlugin](r, sdk.TypePlan, id)
}

// KB returns the kb-plugin id.
func (r *Registry) KB(id string) (sdk.KBPlugin, bool) { return typed[sdk.KBPlugin](r, sdk.TypeKB, id) }

// GS returns the gs-plugin id.
func (r *Registry) GS(id string) (sdk.GSPlugin, bool) { return typed[sdk.GSPlugin](r, sdk.TypeGS, id) }

// Val returns the val-plugin id.
func (r *Registry) Val(id string) (sdk.ValPlugin, bool) {
	return typed[sdk.ValPlugin](r, sdk.TypeVal, id)
}

// KBPlugins returns every kb-plugin in registration order: the plugins the
// ingest pipeline offers source text to.
func (r *Registry) KBPlugins() []sdk.KBPlugin {
	var out []sdk.KBPlugin
	for _, p := range r.Plugins(sdk.TypeKB) {
		if kb, ok := p.(sdk.KBPlugin); ok {
			out = append(out, kb)
		}
	}
	return out
}

func typeNames() string {
	s := make([]string, len(sdk.PluginTypes))
	for i, t := range sdk.PluginTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
