package llm

import (
	"context"
	"fmt"

	"github.com/mrpvm/mrpvm/plugin"
)

// Bridge is the process-wide plugin.LLM: each request is resolved by its
// PluginID and Role (plugin override, role, request/session override,
// default, environment) and sent through a Client with the shared
// Options (HTTP client, retries, streaming, cache). It holds no per-request
// state; wrap it in a Meter per request to charge the LLM budget.
type Bridge struct {
	res  *Resolver
	opts Options
}

var _ plugin.LLM = (*Bridge)(nil)

// NewBridge returns a bridge over the merged role settings
// (config.Config.ModelSettings()) and the process environment.
func NewBridge(settings plugin.ModelSettings, opts Options) *Bridge {
	return NewBridgeWith(NewResolver(settings), opts)
}

// NewBridgeWith returns a bridge over a resolver (tests inject its Getenv
// and ReadFile).
func NewBridgeWith(res *Resolver, opts Options) *Bridge { return &Bridge{res: res, opts: opts} }

// Resolver returns the bridge's resolver.
func (b *Bridge) Resolver() *Resolver { return b.res }

// WithRequest returns a bridge sharing this one's options whose
// request/session override is o (laid over the current one).
func (b *Bridge) WithRequest(o plugin.RoleSetting) *Bridge {
	return &Bridge{res: b.res.WithRequest(o), opts: b.opts}
}

// Configured reports whether the plugin and role resolve to an endpoint.
// Plugins that find it false answer `unsupported`.
func (b *Bridge) Configured(pluginID, role string) bool { return b.res.Configured(pluginID, role) }

// AnyConfigured reports whether any role resolves to an endpoint. When it
// is false the engine hands plugins a nil plugin.LLM and shows Hint once.
func (b *Bridge) AnyConfigured() bool { return b.res.AnyConfigured() }

// Client builds the client of a plugin and role. It fails with
// CodeNotConfigured (message: how to configure) when the role has no
// endpoint.
func (b *Bridge) Client(pluginID, role string) (*Client, error) {
	ep, err := b.res.Resolve(pluginID, role)
	if err != nil {
		return nil, err
	}
	return NewClient(ep, b.opts)
}

// Chat resolves the plugin and role of req and runs the completion,
// returning the full reply (usage with totals, finish reason, cache flag,
// attempts). Meter uses it to record what plugin.LLMResponse cannot carry.
func (b *Bridge) Chat(ctx context.Context, req plugin.LLMRequest) (*ChatResponse, error) {
	c, err := b.Client(req.PluginID, req.Role)
	if err != nil {
		return nil, err
	}
	return c.Chat(ctx, ChatRequest{Messages: req.Messages, Temperature: req.Temperature, MaxTokens: req.MaxTokens, JSON: req.JSON})
}

// Complete implements plugin.LLM.
func (b *Bridge) Complete(ctx context.Context, req plugin.LLMRequest) (*plugin.LLMResponse, error) {
	r, err := b.Chat(ctx, req)
	if err != nil {
		return nil, err
	}
	return r.SDK(), nil
}

// String describes the bridge without keys.
func (b *Bridge) String() string {
	return fmt.Sprintf("llm.Bridge{%s, stream: %t, cache: %t}", b.res.String(), b.opts.Stream, b.opts.Cache != nil)
}

// Format prints String for every verb.
func (b *Bridge) Format(f fmt.State, verb rune) { fmt.Fprint(f, b.String()) }

// Chatter is an plugin.LLM that can also return the full reply; Bridge is one.
// Meter prefers it, to record total tokens and cache hits.
type Chatter interface {
	Chat(ctx context.Context, req plugin.LLMRequest) (*ChatResponse, error)
}
