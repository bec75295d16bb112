package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/ingest"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
	"github.com/mrpvm/mrpvm/store"
	"github.com/mrpvm/mrpvm/vm"
)

// Shell completion (mrpvm completion bash|zsh|fish|powershell) completes
// plugin ids, stage=plugin-id pairs, session ids and request ids. It
// never ingests and never writes: plugin ids come from the built-ins and
// the user's wrapper manifests (no wrapper is run, the workspace's are not
// read), session and request ids from the knowledge base opened read-only,
// and a knowledge base that does not exist, or that another process holds
// for writing, completes nothing.

// completionLockWait bounds the wait for a knowledge base another process
// holds: a shell waits on completion.
const completionLockWait = 100 * time.Millisecond

// completionLimit caps the sessions offered.
const completionLimit = 50

// stageTypes maps the stage names --pin and --prefer take to the family of
// plugins each runs.
var stageTypes = []struct {
	stage string
	typ   plugin.PluginType
}{
	{"sd", plugin.TypeSD}, {"plan", plugin.TypePlan}, {"kb", plugin.TypeKB}, {"gs", plugin.TypeGS}, {"val", plugin.TypeVal},
}

func registerCompletions(root *cobra.Command) {
	for _, c := range root.Commands() {
		switch c.Name() {
		case "ask":
			_ = c.RegisterFlagCompletionFunc("pin", completeStagePlugin)
			_ = c.RegisterFlagCompletionFunc("prefer", completeStagePlugin)
			_ = c.RegisterFlagCompletionFunc("session", completeSession)
			c.ValidArgsFunction = cobra.NoFileCompletions
		case "search":
			_ = c.RegisterFlagCompletionFunc("plugin", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return pluginCompletions(plugin.TypeKB, ""), cobra.ShellCompDirectiveNoFileComp
			})
			c.ValidArgsFunction = cobra.NoFileCompletions
		case "trace":
			c.ValidArgsFunction = completeRequest
		}
	}
}

// completeStagePlugin completes "stage=" before the "=" and
// "stage=plugin-id" after it.
func completeStagePlugin(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	stage, _, typed := strings.Cut(toComplete, "=")
	if !typed {
		out := make([]cobra.Completion, 0, len(stageTypes))
		for _, s := range stageTypes {
			out = append(out, cobra.CompletionWithDesc(s.stage+"=", string(s.typ)))
		}
		return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
	for _, s := range stageTypes {
		if s.stage == stage {
			return pluginCompletions(s.typ, stage+"="), cobra.ShellCompDirectiveNoFileComp
		}
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// pluginCompletions lists the ids of the plugins of one family, each
// after prefix, with its description.
func pluginCompletions(t plugin.PluginType, prefix string) []cobra.Completion {
	var out []cobra.Completion
	seen := map[string]bool{}
	add := func(d plugin.Descriptor) {
		if d.Type != t || seen[d.ID] {
			return
		}
		seen[d.ID] = true
		out = append(out, cobra.CompletionWithDesc(prefix+d.ID, oneLine(d.Description, 60)))
	}
	for _, b := range plugins.Builtins() {
		add(b.Descriptor)
	}
	if dir := config.UserDir(); dir != "" {
		manifests, _ := wrapper.Discover(filepath.Join(dir, "wrappers"))
		for _, m := range manifests {
			add(m.Descriptor)
		}
	}
	slices.Sort(out)
	return out
}

// completeSession completes --session with "new" and the stored sessions,
// newest first, each described by its first question.
func completeSession(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	out := []cobra.Completion{cobra.CompletionWithDesc("new", "start a new session")}
	s := openForCompletion()
	if s == nil {
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
	defer s.Close()
	sessions, err := vm.ListSessions(s, completionLimit)
	if err != nil {
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
	for _, x := range sessions {
		out = append(out, cobra.CompletionWithDesc(x.ID, oneLine(safeText(x.FirstQuestion), 60)))
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// completeRequest completes trace's REQUEST_ID with the kept requests,
// newest first.
func completeRequest(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	s := openForCompletion()
	if s == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	defer s.Close()
	ids, err := vm.ListRequests(s)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return ids, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// openForCompletion opens the knowledge base the global flags name for
// reading only, or returns nil: when it does not exist (nothing is
// created), when the workspace is refused, or when it cannot be opened at
// once.
func openForCompletion() *store.Store {
	if ingest.CheckWorkspace(flags.workspace) != nil && !flags.force {
		return nil
	}
	path := flags.db
	if path == "" {
		var err error
		if path, err = store.DefaultPath(flags.workspace); err != nil {
			return nil
		}
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	s, err := store.Open(path, store.Options{ReadOnly: true, LockTimeout: completionLockWait})
	if err != nil {
		return nil
	}
	return s
}
