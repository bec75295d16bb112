package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/store"
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
	// ingest brings the knowledge base up to date once it is open
	// (app.ingest).
	ingest bool
	// db is the knowledge base file to open instead of the one --db names.
	db string
}

// app is an open workspace (knowledge base, catalog, VM).
type app struct {
	*workspace.Workspace
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

// openApp opens the workspace named by the global flags (closing the app
// closes it); plugin problems are printed on standard error unless quiet.
func openApp(ctx context.Context, o kbOptions) (*app, error) {
	// Ingesting $HOME or / would read every Markdown file of the machine
	// into one knowledge base: only on purpose.
	if err := ingest.CheckWorkspace(flags.workspace); err != nil && !flags.force {
		return nil, fmt.Errorf("%w (or pass --force)", err)
	}
	open := func(readOnly bool) (*workspace.Workspace, error) {
		wo := workspaceOptions()
		wo.DBPath = flags.db
		if o.db != "" {
			wo.DBPath = o.db
		}
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
	a := &app{Workspace: w, readOnly: readOnly}
	if o.ingest {
		if err := a.ingest(ctx); err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// withApp opens the workspace as openApp does, runs fn on it and closes
// it.
func withApp(ctx context.Context, o kbOptions, fn func(*app) error) error {
	a, err := openApp(ctx, o)
	if err != nil {
		return err
	}
	defer a.Close()
	return fn(a)
}

// ingest brings the knowledge base up to date before a command reads it,
// printing the files that failed; a file opened read-only is read as it
// is, with a warning.
func (a *app) ingest(ctx context.Context) error {
	if a.readOnly {
		warnf("%s cannot be written; answering from it as it is, without the workspace's changes", a.KB.Store().Path())
		return nil
	}
	rep, err := a.KB.Ingest(ctx, ingest.RunOptions{})
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
