package llmplug

import (
	"bytes"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"text/template"

	"github.com/mrpvm/mrpvm/plugin"
)

// Prompts are a plugin's prompt templates, embedded from its folder. A
// prompt NAME is two templates, "NAME.system" and "NAME.user", defined
// with {{define}} in a .tmpl file; the user part sees the data passed to
// Messages. Templates use text/template (no HTML escaping) with the helper
// functions trim, quote, join, truncate and add.
type Prompts struct{ t *template.Template }

var funcs = template.FuncMap{
	"trim":     strings.TrimSpace,
	"quote":    strconv.Quote,
	"join":     func(sep string, xs []string) string { return strings.Join(xs, sep) },
	"truncate": func(n int, s string) string { return Truncate(s, n) },
	"add":      func(a, b int) int { return a + b },
}

// ParsePrompts parses the templates in fsys matching the patterns.
func ParsePrompts(fsys fs.FS, patterns ...string) (*Prompts, error) {
	t, err := template.New("prompts").Funcs(funcs).Option("missingkey=error").ParseFS(fsys, patterns...)
	if err != nil {
		return nil, fmt.Errorf("llmplug: prompt templates: %w", err)
	}
	return &Prompts{t: t}, nil
}

// MustParsePrompts is ParsePrompts for package initialisation: embedded
// templates that do not parse are a programming error.
func MustParsePrompts(fsys fs.FS, patterns ...string) *Prompts {
	p, err := ParsePrompts(fsys, patterns...)
	if err != nil {
		panic(err)
	}
	return p
}

// Has reports whether the prompt name is defined (both parts).
func (p *Prompts) Has(name string) bool {
	return p.t.Lookup(name+".system") != nil && p.t.Lookup(name+".user") != nil
}

// Messages renders prompt name into a system and a user message.
func (p *Prompts) Messages(name string, data any) ([]plugin.Message, error) {
	sys, err := p.render(name+".system", data)
	if err != nil {
		return nil, err
	}
	user, err := p.render(name+".user", data)
	if err != nil {
		return nil, err
	}
	return []plugin.Message{{Role: "system", Content: sys}, {Role: "user", Content: user}}, nil
}

// Render renders one template (e.g. "seed.correct") to text.
func (p *Prompts) Render(name string, data any) (string, error) { return p.render(name, data) }

func (p *Prompts) render(name string, data any) (string, error) {
	if p.t.Lookup(name) == nil {
		return "", fmt.Errorf("llmplug: no prompt template %q", name)
	}
	var b bytes.Buffer
	if err := p.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("llmplug: prompt %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}
