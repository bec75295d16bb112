package vm

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
)

// DefaultIngestDetector reads every workspace file no ingest rule names:
// its normalizePersistentContext is the Markdown reader.
const DefaultIngestDetector = "sd-symbolic"

// Warning codes of ingest through a seed detector, reported as the file's
// warnings at line 1.
const (
	// CodeDetectorSkipped: the configured detector cannot run (it needs an
	// LLM endpoint and none is configured, or it is not loaded); the file
	// was read by sd-symbolic.
	CodeDetectorSkipped = "seed_detector_skipped"
	// CodeDetectorFailed: the detector failed or returned a document that
	// could not be admitted; the file was read by sd-symbolic.
	CodeDetectorFailed = "seed_detector_failed"
)

// ingestRule is a compiled plugins.json ingest rule.
type ingestRule struct {
	pattern  gitignore.Pattern
	detector string
}

// ingestReader reads workspace files through the seed detector their
// ingest rule names (sd-symbolic when none does).
type ingestReader struct {
	cat   *plugins.Catalog
	llm   plugin.LLM
	log   *slog.Logger
	rules []ingestRule
	// warned holds the detectors whose skip has been logged.
	warned sync.Map
}

// IngestReader returns the ingest.SourceReader of a workspace: each file is
// read by the normalizePersistentContext of the seed detector plugins.json's
// ingest names for it, sd-symbolic (the Markdown reader) by default. It
// returns nil, the Markdown reader itself, when sd-symbolic is not loaded
// and no rule names a detector.
func IngestReader(cat *plugins.Catalog, llm plugin.LLM, log *slog.Logger) ingest.SourceReader {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &ingestReader{cat: cat, llm: llm, log: log}
	for _, rule := range cat.Config.Plugins.Ingest {
		if rule.Glob == "" || rule.SeedDetector == "" {
			continue // dropped by the configuration check
		}
		r.rules = append(r.rules, ingestRule{pattern: gitignore.ParsePattern(rule.Glob, nil), detector: rule.SeedDetector})
	}
	if _, ok := cat.Registry.SD(DefaultIngestDetector); !ok && len(r.rules) == 0 {
		return nil
	}
	return r.read
}

// detectorFor names the detector of a source: the first rule that matches.
func (r *ingestReader) detectorFor(sourceID string) string {
	if len(r.rules) == 0 {
		return DefaultIngestDetector
	}
	parts := strings.Split(sourceID, "/")
	for _, rule := range r.rules {
		if rule.pattern.Match(parts, false) == gitignore.Exclude {
			return rule.detector
		}
	}
	return DefaultIngestDetector
}

func (r *ingestReader) read(ctx context.Context, info kus.SourceInfo, text []byte) (*kus.Document, error) {
	id := r.detectorFor(info.SourceID)
	if id == DefaultIngestDetector {
		return r.symbolic(ctx, info, text)
	}
	p, ok := r.cat.Registry.SD(id)
	if !ok {
		return r.fallback(ctx, info, text, CodeDetectorSkipped,
			fmt.Sprintf("seed detector %s is not loaded (disabled or unknown); read by %s", id, DefaultIngestDetector))
	}
	d := p.Descriptor()
	if d.UsesLLM && r.llm == nil {
		if _, seen := r.warned.LoadOrStore(id, true); !seen {
			r.log.Warn("ingest: seed detector needs an LLM endpoint; files read by "+DefaultIngestDetector, "plugin", id)
		}
		return r.fallback(ctx, info, text, CodeDetectorSkipped,
			fmt.Sprintf("seed detector %s needs an LLM endpoint and none is configured; read by %s", id, DefaultIngestDetector))
	}
	md, err := r.symbolic(ctx, info, text)
	if err != nil {
		return nil, err
	}
	doc, err := r.normalize(ctx, p, d, info, text, md)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		md.Diagnostics = append(md.Diagnostics, kus.Diagnostic{Line: 1, Col: 1, Severity: kus.SeverityWarning, Code: CodeDetectorFailed,
			Message: fmt.Sprintf("seed detector %s: %v; read by %s", id, err, DefaultIngestDetector)})
		return md, nil
	}
	return doc, nil
}

// symbolic reads a file with sd-symbolic, or with the Markdown reader
// itself when sd-symbolic is not loaded.
func (r *ingestReader) symbolic(ctx context.Context, info kus.SourceInfo, text []byte) (*kus.Document, error) {
	p, ok := r.cat.Registry.SD(DefaultIngestDetector)
	if !ok {
		return kus.ParseContext(ctx, text, info)
	}
	// The engine hands each file's text over and never changes it: the
	// string shares its bytes rather than copying every file of an ingest.
	res, err := p.NormalizePersistentContext(ctx, plugin.RunContext{HookType: plugin.HookSourceText},
		&plugin.NormalizeInput{Source: info, Text: unsafe.String(unsafe.SliceData(text), len(text))})
	switch {
	case err != nil:
		return nil, err
	case res.Status != plugin.StatusSuccess || res.Doc == nil:
		return nil, fmt.Errorf("%s: %s", DefaultIngestDetector, resultProblem(res.Status, res.Error))
	}
	return res.Doc, nil
}

// fallback reads a file with sd-symbolic and adds a warning saying why.
func (r *ingestReader) fallback(ctx context.Context, info kus.SourceInfo, text []byte, code, msg string) (*kus.Document, error) {
	doc, err := r.symbolic(ctx, info, text)
	if err != nil {
		return nil, err
	}
	doc.Diagnostics = append(doc.Diagnostics, kus.Diagnostic{Line: 1, Col: 1, Severity: kus.SeverityWarning, Code: code, Message: msg})
	return doc, nil
}

// normalize has detector p read one file, bounded by its timeoutMs, and
// checks every KU it returns: units that fail kus.CheckUnit are dropped,
// each with a warning at its line.
func (r *ingestReader) normalize(ctx context.Context, p plugin.SDPlugin, d plugin.Descriptor, info kus.SourceInfo, text []byte, md *kus.Document) (*kus.Document, error) {
	if d.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, config.Duration(d.TimeoutMs))
		defer cancel()
	}
	rc := plugin.RunContext{HookType: plugin.HookSourceText, Logger: r.log}
	if r.llm != nil {
		// Each file is a budget of its own: the detector's maxLLMCalls.
		meter := llm.NewMeter(r.llm, d.MaxLLMCalls)
		rc.LLM = meter.Stage(d.ID, d.MaxLLMCalls)
		rc.Budgets = meter.Budgets(rc.Budgets)
	}
	if dl, ok := ctx.Deadline(); ok {
		rc.Budgets.Deadline = dl
	}
	src := string(text)
	res, err := p.NormalizePersistentContext(ctx, rc, &plugin.NormalizeInput{Source: info, Text: src, Units: md.Units})
	switch {
	case err != nil:
		return nil, err
	case res == nil:
		return nil, fmt.Errorf("no result")
	case res.Status != plugin.StatusSuccess:
		return nil, fmt.Errorf("%s", resultProblem(res.Status, res.Error))
	}
	doc := res.Doc
	if doc == nil {
		if strings.TrimSpace(res.ContextCNL) == "" {
			return nil, fmt.Errorf("it returned no KUs")
		}
		if doc, err = DocumentFromContextCNL(res.ContextCNL, info, md, src); err != nil {
			return nil, err
		}
	}
	checkUnits(doc, d.ID)
	return doc, nil
}

// checkUnits drops the units of doc that fail kus.CheckUnit, and their
// ids from the others' child lists, with a warning each. The source
// summary (the first unit) is the Markdown reader's and is kept.
func checkUnits(doc *kus.Document, detector string) {
	if len(doc.Units) == 0 {
		return
	}
	var dropped map[string]bool
	kept := doc.Units[:1]
	for _, u := range doc.Units[1:] {
		if code, msg := kus.CheckUnit(u); code != "" {
			if dropped == nil {
				dropped = map[string]bool{}
			}
			dropped[u.ID] = true
			doc.Diagnostics = append(doc.Diagnostics, kus.Diagnostic{Line: max(u.Range.StartLine, 1), Col: 1,
				Severity: kus.SeverityWarning, Code: code, Message: fmt.Sprintf("%s returned an invalid unit, not stored: %s", detector, msg)})
			continue
		}
		kept = append(kept, u)
	}
	if dropped == nil {
		return
	}
	for i := len(kept); i < len(doc.Units); i++ {
		doc.Units[i] = nil
	}
	doc.Units = kept
	for _, u := range doc.Units {
		if len(u.ChildUnitIDs) == 0 {
			continue
		}
		children := u.ChildUnitIDs[:0]
		for _, c := range u.ChildUnitIDs {
			if !dropped[c] {
				children = append(children, c)
			}
		}
		u.ChildUnitIDs = children
		u.Hash = kus.HashKU(u)
	}
}

func resultProblem(st plugin.Status, e *plugin.Error) string {
	if e != nil {
		return fmt.Sprintf("%s: %s: %s", st, e.Code, e.Message)
	}
	return string(st)
}
