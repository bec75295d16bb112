package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
	"github.com/mrpvm/mrpvm/workspace"
)

// kbOptions are the flags of commands that open the knowledge base.
type kbOptions struct {
	rebuild     bool
	maxFileSize int64
	readOnly    bool
	quiet       bool // do not print plugin problems
	llmCache    bool // cache LLM replies in the knowledge base file (--llm-cache)
	// reads marks a command that can answer from a knowledge base file it
	// cannot write: such a file is opened read-only, as it is.
	reads bool
}

// app is an open workspace (knowledge base, catalog, VM).
type app struct {
	*workspace.Workspace
	kb *ingest.KB
	vm *vm.Machine
	// readOnly is set when the file could only be opened for reading
	// (kbOptions.reads): nothing can be ingested into it.
	readOnly bool
}

// workspaceOptions are the options every command opens the workspace of
// the global flags with: the user configuration folder is the default one
// ($MRPVM_CONFIG_DIR, else the platform's).
func workspaceOptions() workspace.Options {
	return workspace.Options{Root: flags.workspace, UserDir: config.DefaultUserFolder()}
}

// openApp opens the workspace named by the global flags with the plugins
// attached; plugin problems are printed on standard error unless quiet.
func openApp(ctx context.Context, o kbOptions) (*app, error) {
	// Ingesting $HOME or / would read every Markdown file of the machine
	// into one knowledge base: only on purpose.
	if err := ingest.CheckWorkspace(flags.workspace); err != nil && !flags.force {
		return nil, fmt.Errorf("%w (or pass --force)", err)
	}
	open := func(readOnly bool) (*workspace.Workspace, error) {
		wo := workspaceOptions()
		wo.DBPath = flags.db
		wo.Store = store.Options{Rebuild: o.rebuild, ReadOnly: readOnly}
		wo.MaxFileSize = o.maxFileSize
		wo.CacheLLM = o.llmCache
		return workspace.Open(wo)
	}
	readOnly := o.readOnly
	w, err := open(readOnly)
	if err != nil && o.reads && !readOnly && errors.Is(err, store.ErrReadOnly) {
		readOnly = true
		w, err = open(true)
	}
	if err != nil {
		return nil, err
	}
	if !o.quiet {
		reportProblems(w.Catalog.Problems)
	}
	return &app{Workspace: w, kb: w.KB, vm: w.VM, readOnly: readOnly}, nil
}

// ingest brings the knowledge base up to date before a command reads it,
// printing the files that failed; a file opened read-only is read as it
// is, with a warning.
func (a *app) ingest(ctx context.Context) error {
	if a.readOnly {
		warnf("%s cannot be written; answering from it as it is, without the workspace's changes", a.kb.Store().Path())
		return nil
	}
	rep, err := a.kb.Ingest(ctx, ingest.RunOptions{})
	if err != nil {
		return err
	}
	for _, e := range rep.Errors {
		if !e.Warning {
			warnf("ingest: %s: %s: %s", e.Path, e.Code, e.Message)
		}
	}
	return nil
}

// openKB opens the knowledge base with the plugins attached; closing the
// returned app closes both.
func openKB(ctx context.Context, o kbOptions) (*app, error) { return openApp(ctx, o) }

// printJSON writes v as indented JSON followed by a newline.
// Control characters stay escaped, including those encoding/json leaves
// raw (escapeJSONControls).
func printJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSONControls(b.Bytes()))
	return err
}

// warnf prints a warning line on standard error; its arguments are made
// safe for a terminal as termf does.
func warnf(format string, args ...any) {
	termf(os.Stderr, "mrpvm: warning: "+format+"\n", args...)
}
