// Package plugins holds the typed plugin system (docs/contracts.md): the typed
// registry, the table of built-in plugin factories (filled at init time by
// each plugins/<type>/<id> package, database/sql-driver style), the
// config-driven catalog that instantiates enabled built-ins and allowlisted
// external wrappers, and the folder check behind `mrpvm plugins check`.
// The descriptor, family interfaces and result types live in plugin.
package plugins

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mrpvm/mrpvm/plugin"
)

// Aliases for the SDK types most callers of this package need.
type (
	Descriptor   = plugin.Descriptor
	PlannerHints = plugin.PlannerHints
	PluginType   = plugin.PluginType
	Plugin       = plugin.Plugin
	Error        = plugin.PluginError
)

// Registry is the typed plugin registry. Ids are unique across families.
// It is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	byID  map[string]*entry
	order []string // registration order
}

type entry struct {
	plugin plugin.Plugin
	desc   plugin.Descriptor
	ref    string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byID: map[string]*entry{}} }

// Register adds a plugin. See RegisterRef.
func (r *Registry) Register(p plugin.Plugin) error { return r.RegisterRef(p, "") }

// RegisterRef adds a plugin known by ref (its plugin.json or manifest path)
// in errors. It fails, with a *plugin.PluginError of stage register, when the
// descriptor's type is not one of the five families
// (unknown_plugin_type), when the value does not implement its family's
// interface (plugin_type_mismatch), when the descriptor breaks a descriptor rule
// (its descriptor_* code) or when the id is taken (duplicate_plugin_id).
func (r *Registry) RegisterRef(p plugin.Plugin, ref string) error {
	fail := func(id, code, format string, args ...any) error {
		return &plugin.PluginError{Ref: ref, ID: id, Stage: plugin.StageRegister, Code: code, Message: fmt.Sprintf(format, args...)}
	}
	if p == nil {
		return fail("", plugin.CodePluginTypeMismatch, "nil plugin")
	}
	d := p.Descriptor().Clone()
	if !d.Type.Valid() {
		return fail(d.ID, plugin.CodeUnknownPluginType, "type %q is not one of the plugin families (%s)", d.Type, typeNames())
	}
	if !plugin.Implements(p, d.Type) {
		return fail(d.ID, plugin.CodePluginTypeMismatch, "%T declares type %s but does not implement its interface", p, d.Type)
	}
	if errs := d.Validate(); len(errs) > 0 {
		e := errs[0]
		msg := e.Message
		if len(errs) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(errs)-1)
		}
		return &plugin.PluginError{Ref: ref, ID: d.ID, Stage: plugin.StageRegister, Code: e.Code, Field: e.Field, Message: msg}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.byID[d.ID]; ok {
		where := old.ref
		if where == "" {
			where = "another plugin"
		}
		return fail(d.ID, plugin.CodeDuplicatePluginID, "id %q is already registered by %s (%s)", d.ID, where, old.desc.Type)
	}
	r.byID[d.ID] = &entry{plugin: p, desc: d, ref: ref}
	r.order = append(r.order, d.ID)
	return nil
}

// Get returns the plugin of the given type and id, or nil.
func (r *Registry) Get(t plugin.PluginType, id string) plugin.Plugin {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byID[id]
	if !ok || e.desc.Type != t {
		return nil
	}
	return e.plugin
}

// Lookup returns the plugin with the given id, whatever its type.
func (r *Registry) Lookup(id string) (plugin.Plugin, bool) {
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
func (r *Registry) List(t plugin.PluginType) []plugin.Descriptor {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []plugin.Descriptor
	for _, ft := range plugin.PluginTypes {
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
func (r *Registry) ListByType(t plugin.PluginType) []plugin.Descriptor {
	if !t.Valid() {
		return nil
	}
	return r.List(t)
}

// Plugins returns the plugins of one family in registration order.
func (r *Registry) Plugins(t plugin.PluginType) []plugin.Plugin {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []plugin.Plugin
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
func typed[P plugin.Plugin](r *Registry, t plugin.PluginType, id string) (P, bool) {
	p, ok := r.Get(t, id).(P)
	return p, ok
}

// SD returns the sd-plugin id.
func (r *Registry) SD(id string) (plugin.SDPlugin, bool) {
	return typed[plugin.SDPlugin](r, plugin.TypeSD, id)
}

// Planner returns the mrp-plan-plugin id.
func (r *Registry) Planner(id string) (plugin.PlanPlugin, bool) {
	return typed[plugin.PlanPlugin](r, plugin.TypePlan, id)
}

// KB returns the kb-plugin id.
func (r *Registry) KB(id string) (plugin.KBPlugin, bool) {
	return typed[plugin.KBPlugin](r, plugin.TypeKB, id)
}

// GS returns the gs-plugin id.
func (r *Registry) GS(id string) (plugin.GSPlugin, bool) {
	return typed[plugin.GSPlugin](r, plugin.TypeGS, id)
}

// Val returns the val-plugin id.
func (r *Registry) Val(id string) (plugin.ValPlugin, bool) {
	return typed[plugin.ValPlugin](r, plugin.TypeVal, id)
}

// KBPlugins returns every kb-plugin in registration order: the plugins the
// ingest pipeline offers source text to.
func (r *Registry) KBPlugins() []plugin.KBPlugin {
	var out []plugin.KBPlugin
	for _, p := range r.Plugins(plugin.TypeKB) {
		if kb, ok := p.(plugin.KBPlugin); ok {
			out = append(out, kb)
		}
	}
	return out
}

func typeNames() string {
	s := make([]string, len(plugin.PluginTypes))
	for i, t := range plugin.PluginTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
