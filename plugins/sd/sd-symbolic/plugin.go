package sdsymbolic

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/kus/sop"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// ID is the plugin id.
const ID = "sd-symbolic"

//go:embed plugin.json plugin.kus.md
var files embed.FS

// Plugin is sd-symbolic; it takes no options, and any key is an error.
type Plugin struct{ plugin.Base }

var _ plugin.SDPlugin = (*Plugin)(nil)

// New builds the plugin from its options and injected services, as the
// catalog does.
var New = plugins.RegisterBuiltin(plugins.DefineStateless(files, func(base plugin.Base) plugin.Plugin { return &Plugin{Base: base} }))

// maxTurnBytes bounds the text the detector reads from one turn.
const maxTurnBytes = 16 << 10

// DetectSeeds emits intentCNL and currentTurnContextCNL for one turn.
func (p *Plugin) DetectSeeds(ctx context.Context, rc plugin.RunContext, in *plugin.SeedInput) (*plugin.SeedResult, error) {
	turn := in.Payload.Prompt
	if len(turn) > maxTurnBytes {
		turn = turn[:maxTurnBytes]
	}
	turn = strings.ToValidUTF8(turn, "")
	pieces := symbolic.Split(turn)
	intents := sop.NewWriter()
	units := sop.NewWriter()
	nIntents, nUnits := 0, 0
	src := "turn"
	if in.TurnID != "" {
		src = "session::" + in.TurnID
	}
	// Tasks become one intent each; the rest is grouped into coherent KUs:
	// the instructions for one phase together (all about the answer's
	// form in one gs-plugin KU), and the facts about one subject together.
	type group struct {
		scope, subject string
		texts          []string
		fact           symbolic.Fact
	}
	var groups []*group
	find := func(scope, subject string) *group {
		for _, g := range groups {
			if g.scope == scope && g.subject == subject {
				return g
			}
		}
		g := &group{scope: scope, subject: subject}
		groups = append(groups, g)
		return g
	}
	for _, pc := range pieces {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if pc.Task {
			nIntents++
			act := symbolic.ActOf(pc.Text)
			if asksBeside(pieces, pc) {
				act = symbolic.ActBeside(pc.Text)
			}
			intents.Intent(&sop.Intent{Act: act, Target: symbolic.TargetOf(pc.Text), Output: symbolic.OutputOf(act)})
			continue
		}
		subject := ""
		f, isFact := symbolic.ExtractFact(pc.Text)
		if pc.Scope == symbolic.ScopeKB && isFact {
			subject = strings.ToLower(f.Subject)
		}
		g := find(pc.Scope, subject)
		g.texts = append(g.texts, pc.Text)
		if isFact {
			g.fact = f
		}
	}
	for _, g := range groups {
		text := strings.Join(g.texts, " ")
		k := &kus.KU{SourceID: src, ChunkID: src + "::chunk-000", Topic: firstWords(text, 8), Claim: text,
			Role: "Constraint", PhaseScopes: []string{g.scope}, KUType: kus.TypeAtomic}
		if len(g.texts) > 1 {
			k.KUType = kus.TypeComposite
		}
		if g.scope == symbolic.ScopeKB {
			k.Role = "Description"
			if g.subject != "" {
				k.Topic = g.fact.Subject
			}
			if len(g.texts) == 1 && g.fact.Subject != "" {
				k.SymbolicSubject, k.SymbolicRelation, k.SymbolicObject = g.fact.Subject, g.fact.Relation, g.fact.Object
			}
		}
		k.UtilityActs = kus.ActsForRole(k.Role)
		units.KU("", withID(k, fmt.Sprintf("%s::unit-%03d", src, nUnits)))
		nUnits++
	}
	if nIntents == 0 && strings.TrimSpace(turn) != "" {
		// A turn made only of instructions still asks for something.
		act := symbolic.ActOf(turn)
		intents.Intent(&sop.Intent{Act: act, Target: symbolic.TargetOf(firstWords(turn, 40)), Output: symbolic.OutputOf(act)})
	}
	if err := errors.Join(intents.Err(), units.Err()); err != nil {
		return &plugin.SeedResult{Status: plugin.StatusError, Error: &plugin.Error{Code: plugin.CodePluginFailed, Message: err.Error()}}, nil
	}
	return &plugin.SeedResult{Status: plugin.StatusSuccess, IntentCNL: intents.String(), CurrentTurnContextCNL: units.String()}, nil
}

// NormalizePersistentContext turns source text into KUs. A Markdown source
// is read by the Markdown reader (kus.ParseContext): its hierarchy of
// source summary, sections and grouped leaves with their facts and Context
// Unit blocks comes back in the result's Doc. Other text becomes one KU per
// paragraph (grouped, never one per sentence) plus an atomic KU carrying
// the fact of each fact-bearing sentence, as contextCNL.
func (p *Plugin) NormalizePersistentContext(ctx context.Context, rc plugin.RunContext, in *plugin.NormalizeInput) (*plugin.NormalizeResult, error) {
	if t := in.Source.SourceType; t == "" || t == kus.SourceMarkdown {
		// The reader never writes to its input: it reads Text in place
		// rather than copying every file of an ingest once more.
		doc, err := kus.ParseContext(ctx, unsafe.Slice(unsafe.StringData(in.Text), len(in.Text)), in.Source)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return &plugin.NormalizeResult{Status: plugin.StatusError, Error: &plugin.Error{Code: plugin.CodePluginFailed, Message: err.Error()}}, nil
		}
		return &plugin.NormalizeResult{Status: plugin.StatusSuccess, Doc: doc}, nil
	}
	src := in.Source.SourceID
	if src == "" {
		src = "source"
	}
	w := sop.NewWriter()
	n := 0
	add := func(k *kus.KU) {
		k.SourceID = src
		k.ChunkID = fmt.Sprintf("%s::chunk-%03d", src, k.ChunkIndex)
		w.KU("", withID(k, fmt.Sprintf("%s::%d::%d", src, k.ChunkIndex, n)))
		n++
	}
	for pi, para := range paragraphs(in.Text) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sentences := symbolic.Sentences(para)
		var facts []*kus.KU
		for _, s := range sentences {
			if f, ok := symbolic.ExtractFact(s); ok {
				facts = append(facts, &kus.KU{KUType: kus.TypeAtomic, Role: "Definition", Topic: f.Subject, Claim: s,
					SymbolicSubject: f.Subject, SymbolicRelation: f.Relation, SymbolicObject: f.Object, ChunkIndex: pi})
			}
		}
		if len(facts) == len(sentences) && len(facts) > 0 {
			// A paragraph of facts is its facts: no need to repeat it whole.
			for _, f := range facts {
				add(f)
			}
			continue
		}
		kt := kus.TypeComposite
		if len(sentences) == 1 {
			kt = kus.TypeAtomic
		}
		add(&kus.KU{KUType: kt, Role: "Narrative", Topic: firstWords(para, 8), Claim: truncate(para, 4000), ChunkIndex: pi})
		for _, f := range facts {
			add(f)
		}
	}
	if err := w.Err(); err != nil {
		return &plugin.NormalizeResult{Status: plugin.StatusError, Error: &plugin.Error{Code: plugin.CodePluginFailed, Message: err.Error()}}, nil
	}
	return &plugin.NormalizeResult{Status: plugin.StatusSuccess, ContextCNL: w.String()}, nil
}

func withID(k *kus.KU, id string) *kus.KU {
	k.ID = id
	if k.KUType == "" {
		k.KUType = kus.TypeAtomic
	}
	return k
}

// paragraphs splits text at blank lines, dropping Markdown heading marks.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		p = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(p), "#"))
		if p != "" {
			out = append(out, strings.Join(strings.Fields(p), " "))
		}
	}
	return out
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.TrimRight(strings.Join(f, " "), ".,;:?!")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// asksBeside reports whether a task piece other than pc asks a question.
func asksBeside(pieces []symbolic.Piece, pc symbolic.Piece) bool {
	for _, o := range pieces {
		if o.Task && o.Text != pc.Text && strings.HasSuffix(strings.TrimSpace(o.Text), "?") {
			return true
		}
	}
	return false
}
