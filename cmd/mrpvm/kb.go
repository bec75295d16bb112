package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/mrpvm/mrpvm/engine"
	"github.com/mrpvm/mrpvm/engine/vm"
	"github.com/mrpvm/mrpvm/plugins"
	_ "github.com/mrpvm/mrpvm/plugins/all"
)

// kbOptions are the flags of commands that open the knowledge base.
type kbOptions struct {
	rebuild     bool
	maxFileSize int64
	readOnly    bool
	quiet       bool // do not print plugin problems
}

// app is an open workspace: its knowledge base, the plugin catalog whose
// kb-plugins index it, and the VM that answers questions over both.
type app struct {
	kb  *engine.KB
	cat *plugins.Catalog
	vm  *vm.Machine
}

// Close closes the plugins, then the knowledge base.
func (a *app) Close() error {
	err := a.cat.Close()
	if cerr := a.kb.Close(); err == nil {
		err = cerr
	}
	return err
}

// openApp opens the workspace's knowledge base, boots the plugin catalog
// with each plugin's private namespace in it, and attaches every enabled
// kb-plugin as an ingest hook and every built-in's plugin.kus.md as source
// plugin::<id>.
func openApp(ctx context.Context, o kbOptions) (*app, error) {
	kb, err := engine.Open(engine.Config{
		Workspace:   flags.workspace,
		DBPath:      flags.db,
		Store:       engine.StoreOptions{Rebuild: o.rebuild, ReadOnly: o.readOnly},
		MaxFileSize: o.maxFileSize,
	})
	if err != nil {
		return nil, err
	}
	logger := slog.New(slog.DiscardHandler)
	cat := plugins.LoadCatalog(plugins.CatalogOptions{Workspace: kb.Workspace(), Env: vm.PluginEnv(kb, nil, logger), Logger: logger})
	if !o.quiet {
		reportProblems(cat.Problems)
	}
	kb.Attach(vm.Hooks(cat), vm.VirtualSources(cat))
	return &app{kb: kb, cat: cat, vm: vm.New(kb, cat, vm.Options{Logger: logger})}, nil
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
