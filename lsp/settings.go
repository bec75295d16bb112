package lsp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/plugin"
)

// Settings are the client's settings, from initializationOptions or
// workspace/configuration (section "mrpvm").
type Settings struct {
	DBPath      string `json:"dbPath,omitempty"`
	UserDir     string `json:"userDir,omitempty"`
	SnapshotDir string `json:"snapshotDir,omitempty"`
	NoLLM       *bool  `json:"noLLM,omitempty"`
	// NoWatcher turns the built-in file watcher off.
	NoWatcher bool `json:"noWatcher,omitempty"`
	// LLM is the model endpoint laid over the default role of
	// llm-role-settings.json (roles and plugin overrides of the files still
	// win; unset fields fall back to the files, then MRPVM_LLM_*). Like the
	// user's configuration folder it is trusted: editors should pass
	// user-scope values only, never a workspace's.
	LLM *plugin.RoleSetting `json:"llm,omitempty"`
	// Plugins enables (true) or disables (false) plugins by id over the
	// configuration files (the mrpvm.plugins setting); plugins it does not
	// name keep the files' state. A change reloads every folder. Like llm
	// it is trusted: editors should pass user-scope values only.
	Plugins map[string]bool `json:"plugins,omitempty"`
	// Hover says what hover shows: "terms" (default: the unit that defines
	// or describes the term, links and plugin ids), "links" (links and
	// plugin ids only) or "off".
	Hover string `json:"hover,omitempty"`
	// AskWaitMs is how long mrpvm.ask waits for a running first ingest to
	// finish before answering from a partial knowledge base (the answer then
	// says so); nil: DefaultAskWait, 0: do not wait.
	AskWaitMs *int `json:"askWaitMs,omitempty"`
	// Exclude are gitignore-style patterns, relative to each workspace
	// folder, of files never ingested, added to engine.json's exclude. A
	// change reloads every folder.
	Exclude []string `json:"exclude,omitempty"`
}

// Hover setting values.
const (
	HoverTerms = "terms"
	HoverLinks = "links"
	HoverOff   = "off"
)

// DefaultAskWait is how long a question waits for the first ingest.
const DefaultAskWait = 3 * time.Second

// validHover reports whether v is a hover setting value ("" : default).
func validHover(v string) bool {
	return v == "" || v == HoverTerms || v == HoverLinks || v == HoverOff
}

// pullConfiguration asks the client for the "mrpvm" section.
func (s *Server) pullConfiguration() {
	s.mu.Lock()
	ok := s.caps.Configuration
	s.mu.Unlock()
	if !ok {
		return
	}
	var out []json.RawMessage
	if err := s.call(s.ctx, "workspace/configuration", map[string]any{
		"items": []map[string]any{{"section": "mrpvm"}},
	}, &out); err != nil {
		s.log.Warn("workspace/configuration", "err", err)
		return
	}
	if len(out) == 0 || string(out[0]) == "null" {
		return
	}
	var st Settings
	if err := json.Unmarshal(out[0], &st); err != nil {
		s.showMessage(protocol.MessageTypeWarning, "mrpvm: bad settings: "+err.Error())
		return
	}
	s.mu.Lock()
	// Settings that need a reopen (dbPath) take effect for folders opened
	// later; the snapshot folder and watcher switch apply at once.
	if st.SnapshotDir != "" {
		s.settings.SnapshotDir = st.SnapshotDir
	}
	if st.DBPath != "" && s.settings.DBPath == "" {
		s.settings.DBPath = st.DBPath
	}
	if st.LLM != nil {
		s.settings.LLM = st.LLM // folders opened from now on
	}
	s.settings.NoWatcher = st.NoWatcher
	if validHover(st.Hover) && st.Hover != "" {
		s.settings.Hover = st.Hover
	} else if st.Hover != "" {
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("mrpvm: the hover setting is %q; want terms, links or off", st.Hover))
	}
	if st.AskWaitMs != nil {
		s.settings.AskWaitMs = st.AskWaitMs
	}
	// A section without the plugins key leaves the switches as they are
	// (a client may pass them in initializationOptions only).
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(out[0], &keys)
	_, sent := keys["plugins"]
	switched := sent && !maps.Equal(st.Plugins, s.settings.Plugins)
	if switched {
		s.settings.Plugins = st.Plugins
	}
	_, sent = keys["exclude"]
	excluded := sent && !slices.Equal(st.Exclude, s.settings.Exclude)
	if excluded {
		s.settings.Exclude = st.Exclude
	}
	s.mu.Unlock()
	if excluded {
		if bad := badGlobs(st.Exclude); bad != "" {
			s.showMessage(protocol.MessageTypeWarning, "mrpvm: the exclude setting: "+bad)
		}
	}
	if switched || excluded {
		// The catalog is built when a workspace opens: reopen every folder
		// (as a saved configuration file does).
		for _, f := range s.folderList() {
			if switched {
				f.setSwitches(st.Plugins)
			}
			if excluded {
				f.setExclude(st.Exclude)
			}
			f.scheduleReload(config.SettingsFile, s.opt.Debounce)
		}
	}
}
