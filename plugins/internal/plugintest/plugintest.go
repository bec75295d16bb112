package plugintest

import (
	"encoding/json"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

// unit is the unit id titled title that starts at line of source; the
// caller sets the body the test reads.
func unit(id, title, source string, line int) *kus.KU {
	return &kus.KU{ID: id, Title: title, SourceID: source, Range: kus.Range{StartLine: line}}
}

// Text is the unit id titled title that starts at line of source, with
// the body text.
func Text(id, title, source string, line int, text string) *kus.KU {
	k := unit(id, title, source, line)
	k.TextBody = text
	return k
}

// Claim is the unit id titled title that starts at line of source, with
// the claim.
func Claim(id, title, source string, line int, claim string) *kus.KU {
	k := unit(id, title, source, line)
	k.Claim = claim
	return k
}

// Procedure is the unit id titled title that starts at line of source,
// with the procedure.
func Procedure(id, title, source string, line int, procedure string) *kus.KU {
	k := unit(id, title, source, line)
	k.Procedure = procedure
	return k
}

// Scored is the units as evidence, in their order, each with score 1.
func Scored(units ...*kus.KU) []plugin.ScoredKU {
	out := make([]plugin.ScoredKU, len(units))
	for i, k := range units {
		out[i] = plugin.ScoredKU{KU: k, Score: 1}
	}
	return out
}

// Parse is the units of the Markdown page md read as ingest reads the
// source id; it fails the test when the page does not parse.
func Parse(t testing.TB, id, md string) []*kus.KU {
	t.Helper()
	doc, err := kus.Parse([]byte(md), kus.SourceInfo{SourceID: id, SourceType: kus.SourceMarkdown})
	if err != nil {
		t.Fatal(err)
	}
	return doc.Units
}

// New is the plugin the factory build makes with no options object (the
// defaults) and the services env, as P (the plugin's concrete type or a
// family interface); it fails the test when the build fails or the plugin
// is not a P.
func New[P any](t testing.TB, build func(json.RawMessage, plugin.Env) (plugin.Plugin, error), env plugin.Env) P {
	t.Helper()
	p, err := build(nil, env)
	if err != nil {
		t.Fatalf("build %s: %v", env.PluginID, err)
	}
	v, ok := p.(P)
	if !ok {
		t.Fatalf("%s is a %T, not a %T", env.PluginID, p, v)
	}
	return v
}
