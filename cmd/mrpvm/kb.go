package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mrpvm/mrpvm/engine"
	"github.com/mrpvm/mrpvm/engine/vm"
	_ "github.com/mrpvm/mrpvm/plugins/all"
)

// kbOptions are the flags of commands that open the knowledge base.
type kbOptions struct {
	rebuild     bool
	maxFileSize int64
	readOnly    bool
	quiet       bool // do not print plugin problems
	llmCache    bool // cache LLM replies in the knowledge base file (--llm-cache)
}

// app is an open workspace (knowledge base, catalog, VM).
type app struct {
	*vm.Workspace
	kb *engine.KB
	vm *vm.Machine
}

// openApp opens the workspace named by the global flags with the plugins
// attached; plugin problems are printed on standard error unless quiet.
func openApp(ctx context.Context, o kbOptions) (*app, error) {
	// Ingesting $HOME or / would read every Markdown file of the machine
	// into one knowledge base: only on purpose.
	if err := engine.CheckWorkspace(flags.workspace); err != nil && !flags.force {
		return nil, fmt.Errorf("%w (or pass --force)", err)
	}
	w, err := vm.Open(vm.OpenOptions{
		Workspace:   flags.workspace,
		DBPath:      flags.db,
		Store:       engine.StoreOptions{Rebuild: o.rebuild, ReadOnly: o.readOnly},
		MaxFileSize: o.maxFileSize,
		CacheLLM:    o.llmCache,
	})
	if err != nil {
		return nil, err
	}
	if !o.quiet {
		reportProblems(w.Catalog.Problems)
	}
	return &app{Workspace: w, kb: w.KB, vm: w.VM}, nil
}

// openKB opens the knowledge base with the plugins attached; closing the
// returned app closes both.
func openKB(ctx context.Context, o kbOptions) (*app, error) { return openApp(ctx, o) }

// printJSON writes v as indented JSON followed by a newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// warnf prints a warning line on standard error.
func warnf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mrpvm: warning: "+format+"\n", args...)
}
