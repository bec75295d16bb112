package wrapper

import (
	"context"
	"slices"

	"github.com/mrpvm/mrpvm/plugin"
)

// HelperSet offers loaded wrappers to plugins as externalHelpers
// (plugin.Helpers): a plugin may call any of them on a payload.
type HelperSet struct {
	byID map[string]*Runner
	ids  []string
}

// NewHelperSet returns an empty set.
func NewHelperSet() *HelperSet { return &HelperSet{byID: map[string]*Runner{}} }

// Add offers a wrapper; a second runner with the same id is ignored.
func (h *HelperSet) Add(r *Runner) {
	id := r.m.Descriptor.ID
	if _, ok := h.byID[id]; ok {
		return
	}
	h.byID[id] = r
	h.ids = append(h.ids, id)
	slices.Sort(h.ids)
}

// IDs lists the helpers, sorted.
func (h *HelperSet) IDs() []string { return slices.Clone(h.ids) }

// Call runs helper id once.
func (h *HelperSet) Call(ctx context.Context, id string, p plugin.Payload) (*plugin.WrapperResult, error) {
	r, ok := h.byID[id]
	if !ok {
		return nil, &plugin.PluginError{ID: id, Stage: plugin.StageRun, Code: plugin.CodeUnknownPlugin, Message: "no loaded wrapper has this id"}
	}
	return r.Call(ctx, p)
}

// RunnerOf returns the runner behind a plugin made by New, if any.
func RunnerOf(p plugin.Plugin) (*Runner, bool) {
	if b, ok := p.(interface{ Runner() *Runner }); ok {
		return b.Runner(), true
	}
	return nil, false
}
