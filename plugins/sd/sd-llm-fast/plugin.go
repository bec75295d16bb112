// Package sdllmfast is the built-in sd-plugin sd-llm-fast: lightweight
// LLM-backed seed detection. DetectSeeds makes one call to the seed-fast
// model role that returns both SOP Lang documents (intentCNL and
// currentTurnContextCNL); the SOP interpreter validates them and, when they
// do not validate, one corrective call quotes the errors (maxLLMCalls 2).
// NormalizePersistentContext turns source text into a contextCNL document
// the same way. With no model endpoint configured both answer
// `unsupported` (code llm_not_configured) and the planner routes to
// sd-symbolic. The prompts are the files in prompts/, embedded.
package sdllmfast

import (
	"context"
	"embed"
	"encoding/json"
	"errors"

	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/internal/llmplug"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// ID is the plugin id.
const ID = "sd-llm-fast"

//go:embed plugin.json
var descriptorJSON []byte

//go:embed plugin.kus.md
var kusMarkdown []byte

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = llmplug.MustParsePrompts(promptFS, "prompts/*.tmpl")

func init() {
	plugins.RegisterBuiltin(plugins.Builtin{Descriptor: descriptorJSON, KUs: kusMarkdown, New: New})
}

// Options are the plugin's options in plugins.json.
type Options struct {
	// MaxTurnBytes bounds the user's turn sent to the model; default 8192.
	MaxTurnBytes int `json:"maxTurnBytes,omitempty"`
	// MaxSourceBytes bounds the source text one normalization call sends;
	// default 12000.
	MaxSourceBytes int `json:"maxSourceBytes,omitempty"`
}

func defaults() Options { return Options{MaxTurnBytes: 8192, MaxSourceBytes: 12000} }

func (o *Options) validate() error {
	if o.MaxTurnBytes < 256 || o.MaxSourceBytes < 256 {
		return errors.New("maxTurnBytes and maxSourceBytes must be at least 256")
	}
	return nil
}

// Plugin is sd-llm-fast.
type Plugin struct {
	sdk.Base
	Options Options
	env     sdk.Env
	det     *llmplug.SeedDetector
}

// New builds the plugin from its options and injected services.
func New(raw json.RawMessage, env sdk.Env) (sdk.Plugin, error) {
	opts := defaults()
	base, err := sdk.Setup(descriptorJSON, raw, &opts, (*Options).validate)
	if err != nil {
		return nil, err
	}
	det := &llmplug.SeedDetector{ID: ID, Role: sdk.RoleSeedFast, Prompts: prompts,
		MaxTurnBytes: opts.MaxTurnBytes, MaxSourceBytes: opts.MaxSourceBytes}
	return &Plugin{Base: base, Options: opts, env: env, det: det}, nil
}

// DetectSeeds emits intentCNL and currentTurnContextCNL for one turn.
func (p *Plugin) DetectSeeds(ctx context.Context, rc sdk.RunContext, in *sdk.SeedInput) (*sdk.SeedResult, error) {
	return p.det.DetectSeeds(ctx, rc, in)
}

// NormalizePersistentContext turns one source into a contextCNL document.
func (p *Plugin) NormalizePersistentContext(ctx context.Context, rc sdk.RunContext, in *sdk.NormalizeInput) (*sdk.NormalizeResult, error) {
	return p.det.NormalizePersistentContext(ctx, rc, in)
}
