package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mrpvm/mrpvm/engine"
)

// kbOptions are the flags of commands that open the knowledge base.
type kbOptions struct {
	rebuild     bool
	maxFileSize int64
	readOnly    bool
}

// openKB opens the workspace's knowledge base with every enabled kb-plugin
// index attached and the built-in plugins' KUs as virtual sources.
func openKB(ctx context.Context, o kbOptions) (*engine.KB, error) {
	cfg := engine.Config{
		Workspace:   flags.workspace,
		DBPath:      flags.db,
		Store:       engine.StoreOptions{Rebuild: o.rebuild, ReadOnly: o.readOnly},
		MaxFileSize: o.maxFileSize,
	}
	if err := attachPlugins(ctx, &cfg); err != nil {
		return nil, err
	}
	return engine.Open(cfg)
}

// attachPlugins adds the kb-plugin hooks and the built-in plugin sources.
// It is replaced by the plugin catalog wiring once plugins exist.
var attachPlugins = func(context.Context, *engine.Config) error { return nil }

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
