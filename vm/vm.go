package vm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// coreNamespace is the store namespace holding sessions and traces.
const coreNamespace = "_core"

// Machine is one VM bound to a knowledge base and a plugin catalog. It is
// safe for concurrent use; each Ask runs independently.
type Machine struct {
	kb     *ingest.KB
	cat    *plugins.Catalog
	eng    config.Engine
	log    *slog.Logger
	llm    plugin.LLM
	core   plugin.Store
	now    func() time.Time
	mu     sync.Mutex // guards sessions and traces in memory
	traces map[string]*Trace
	order  []string // trace ids, oldest first
	// announced holds the sessions whose KUs the kb-plugins have heard of.
	announced map[string]bool
	// repoMeta is the repositoryMeta of session events, made once.
	repoOnce sync.Once
	repoMeta json.RawMessage
}

// Options tune a Machine.
type Options struct {
	Logger *slog.Logger
	// LLM is the bridge handed to plugins through the run context; nil
	// when no model endpoint is configured.
	LLM plugin.LLM
	// Now replaces time.Now in tests.
	Now func() time.Time
}

// New builds a Machine. The catalog's plugins should have been built with
// their stores in kb (workspace.Open builds them so).
func New(kb *ingest.KB, cat *plugins.Catalog, opt Options) *Machine {
	m := &Machine{kb: kb, cat: cat, eng: cat.Config.Engine, log: opt.Logger, llm: opt.LLM, now: opt.Now,
		traces: map[string]*Trace{}}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.now == nil {
		m.now = time.Now
	}
	if kb != nil {
		m.core = kb.Store().PluginStore(coreNamespace)
	}
	return m
}

// Catalog returns the machine's plugin catalog.
func (m *Machine) Catalog() *plugins.Catalog { return m.cat }

// KB returns the machine's knowledge base.
func (m *Machine) KB() *ingest.KB { return m.kb }

// Hooks adapts every loaded kb-plugin to an ingest hook so each keeps its
// private index in step with the knowledge base.
func Hooks(cat *plugins.Catalog) []ingest.SourceHook {
	var out []ingest.SourceHook
	for _, id := range cat.Order(plugin.LoopKB) {
		if p, ok := cat.Registry.KB(id); ok {
			out = append(out, &kbHook{p: p, id: id})
		}
	}
	return out
}

// kbHook adapts a kb-plugin to ingest.SourceHook. The ingest bounds each
// call by engine.json's hookTimeoutMs (ingest.Options.HookTimeout).
type kbHook struct {
	p  plugin.KBPlugin
	id string
}

var (
	_ ingest.SourceHook     = (*kbHook)(nil)
	_ ingest.HookVersioner  = (*kbHook)(nil)
	_ plugin.SourcePreparer = (*kbHook)(nil)
)

func (h *kbHook) HookID() string { return h.id }

// HookVersion ties the stored index to the plugin's version, so upgrading a
// plugin rebuilds its index from the stored KUs.
func (h *kbHook) HookVersion() string {
	v := h.p.Descriptor().Version
	if iv, ok := h.p.(plugin.IndexVersioner); ok {
		v += "/" + iv.IndexVersion()
	}
	return v
}

func (h *kbHook) OnSource(ctx context.Context, st *plugin.SourceText) (err error) {
	// The ingest bounds the call by hookTimeoutMs and classifies a panic
	// (a damaged page or the plugin's failure) inside its transaction.
	rc := plugin.RunContext{HookType: plugin.HookSourceText}
	if d, ok := ctx.Deadline(); ok {
		rc.Budgets.Deadline = d
	}
	res, err := h.p.OnSourceText(ctx, rc, st)
	if err != nil {
		return err
	}
	if res != nil && res.Status == plugin.StatusError {
		if res.Error != nil {
			return res.Error // its code stays inspectable (plugin.IsIndexCorrupt)
		}
		return errors.New("indexing failed")
	}
	return nil
}

// PrepareSource lets a kb-plugin that can analyse a parsed source ahead of
// its transaction do so on the ingest's parse workers
// (plugin.SourcePreparer).
func (h *kbHook) PrepareSource(sourceID string, doc *kus.Document) {
	if p, ok := h.p.(plugin.SourcePreparer); ok {
		p.PrepareSource(sourceID, doc)
	}
}

// newID returns a short random id with a prefix.
func newID(prefix string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// storeKUReader reads committed KUs from the knowledge base.
type storeKUReader struct{ kb *ingest.KB }

func (r storeKUReader) KU(id string) (*kus.KU, error) {
	if r.kb == nil {
		return nil, nil
	}
	return r.kb.Store().KU(id)
}
