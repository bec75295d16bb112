package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
)

// completionItem is the plain wire form of an LSP CompletionItem.
type completionItem struct {
	Label      string `json:"label"`
	Kind       int    `json:"kind"` // 10 property, 12 value
	Detail     string `json:"detail,omitempty"`
	InsertText string `json:"insertText,omitempty"`
}

// cuFields are the field names of a `## Context Unit` block, with their
// legal values where the set is closed.
var cuFields = []struct {
	name   string
	values []string
}{
	{"Title", nil}, {"Role", kus.Roles}, {"Topic", nil}, {"Claim", nil}, {"Procedure", nil}, {"Condition", nil},
	{"TextBody", nil}, {"Tags", nil}, {"KuType", []string{kus.TypeAtomic, kus.TypeComposite, kus.TypeAggregate}},
	{"Subject", nil}, {"Relation", kus.Relations}, {"Object", nil}, {"Confidence", nil},
	{"UtilityActs", kus.Acts}, {"PhaseScopes", kus.PhaseScopeValues}, {"UtilityNote", nil},
	{"ParentUnitIds", nil}, {"ChildUnitIds", nil}, {"DerivedFromUnitIds", nil},
}

// descriptorFields are plugin.json's keys with closed value sets.
func descriptorFields() map[string][]string {
	types := make([]string, 0, len(plugin.PluginTypes))
	for _, t := range plugin.PluginTypes {
		types = append(types, string(t))
	}
	return map[string][]string{
		"id": nil, "type": types, "name": nil, "version": nil, "description": nil, "costClass": plugin.CostClasses,
		"usesLLM": {"true", "false"}, "modelRoles": nil, "maxLLMCalls": nil, "tags": nil, "timeoutMs": nil,
		"plannerHints": nil, "provides": nil, "accepts": nil,
	}
}

// completion offers field names and legal values in plugin.kus.md,
// plugin.json and manifest.json.
func (s *Server) completion(ctx context.Context, raw json.RawMessage) (any, error) {
	p, text, readable, err := s.positionText(raw)
	if err != nil {
		return nil, err
	}
	if !readable {
		return []completionItem{}, nil
	}
	off := offsetOf(text, p.Position)
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	prefix := text[lineStart:off]
	base := filepath.Base(uriToPath(p.TextDocument.URI))
	if base != "plugin.kus.md" {
		items, ok, err := s.linkCompletion(ctx, p.TextDocument.URI, text, p.Position)
		if err != nil || ok {
			return items, err
		}
	}
	out := []completionItem{}
	switch {
	case base == "plugin.kus.md":
		key, _, hasColon := strings.Cut(strings.TrimLeft(prefix, " -*"), ":")
		if hasColon {
			for _, f := range cuFields {
				if strings.EqualFold(strings.TrimSpace(key), f.name) {
					for _, v := range f.values {
						out = append(out, completionItem{Label: v, Kind: 12, Detail: f.name})
					}
				}
			}
			return out, nil
		}
		for _, f := range cuFields {
			out = append(out, completionItem{Label: f.name, Kind: 10, InsertText: f.name + ": ", Detail: "Context Unit field"})
		}
	case base == "plugin.json" || base == wrapper.ManifestFile:
		fields := descriptorFields()
		// After `"key": ` offer the key's values, else the keys.
		if i := strings.LastIndex(prefix, ":"); i >= 0 {
			k := strings.Trim(strings.TrimSpace(prefix[:i]), `",{ `)
			if vals, ok := fields[k]; ok {
				for _, v := range vals {
					ins := `"` + v + `"`
					if v == "true" || v == "false" {
						ins = v
					}
					out = append(out, completionItem{Label: v, Kind: 12, Detail: k, InsertText: ins})
				}
				return out, nil
			}
		}
		for _, k := range sortedKeys(fields) {
			out = append(out, completionItem{Label: k, Kind: 10, Detail: "plugin descriptor field"})
		}
	}
	return out, nil
}
