package plugins

import (
	"encoding/json"

	"github.com/mrpvm/mrpvm/plugin"
)

// SortedEntries lists the catalog's entries by family (in plugin.PluginTypes
// order, catalog order within a family), entries of unknown type last.
func (c *Catalog) SortedEntries() []*Entry {
	var out []*Entry
	for _, t := range plugin.PluginTypes {
		for _, e := range c.Entries {
			if e.Descriptor.Type == t {
				out = append(out, e)
			}
		}
	}
	for _, e := range c.Entries {
		if !e.Descriptor.Type.Valid() {
			out = append(out, e)
		}
	}
	return out
}

// JSON renders each entry as its descriptor plus enabled, loaded, origin
// and ref: the `mrpvm plugins --json` and `mrpvm.plugins` shape.
func (c *Catalog) JSON() []json.RawMessage {
	out := []json.RawMessage{}
	for _, e := range c.SortedEntries() {
		d := e.Descriptor.Clone()
		if d.Extra == nil {
			d.Extra = map[string]json.RawMessage{}
		}
		for k, v := range map[string]any{"enabled": e.Enabled, "loaded": e.Loaded, "origin": e.Origin, "ref": e.Ref} {
			b, _ := json.Marshal(v)
			d.Extra[k] = b
		}
		b, err := json.Marshal(d)
		if err != nil {
			continue
		}
		out = append(out, b)
	}
	return out
}
