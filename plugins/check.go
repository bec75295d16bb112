package plugins

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mrpvm/mrpvm/internal/fsafe"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
)

// Codes of the folder check.
const (
	CodeNoDescriptor = "plugin_descriptor_missing" // neither plugin.json nor manifest.json
	CodeKUsMissing   = "plugin_kus_missing"
	CodeNoReadme     = "wrapper_readme_missing" // a warning: wrappers ship a README
)

// CheckKUs validates a plugin.kus.md: it must parse, hold at least one
// `## Context Unit plugin::<id>::...` block, and have no error diagnostics.
// Error diagnostics are returned as plugin_kus_invalid problems; warnings
// as warnings. file names the text in the problems.
func CheckKUs(id string, data []byte, file string) []*plugin.PluginError {
	src := KUSourceID(id)
	mk := func(line, col int, warning bool, format string, args ...any) *plugin.PluginError {
		return &plugin.PluginError{Ref: file, ID: id, Stage: plugin.StageValidate, Code: plugin.CodeKUsInvalid, File: file,
			Line: line, Col: col, Warning: warning, Message: fmt.Sprintf(format, args...)}
	}
	doc, err := kus.Parse(data, kus.SourceInfo{SourceID: src, SourceName: id + "/plugin.kus.md"})
	if err != nil {
		return []*plugin.PluginError{mk(1, 1, false, "%v", err)}
	}
	var out []*plugin.PluginError
	for _, d := range doc.Diagnostics {
		pe := mk(d.Line, d.Col, d.Severity != kus.SeverityError, "%s: %s", d.Code, d.Message)
		out = append(out, pe)
	}
	units := 0
	for _, u := range doc.Units {
		if strings.HasPrefix(u.ID, src+"::unit-") {
			units++
		}
	}
	if units == 0 {
		out = append(out, mk(1, 1, false, "no `## Context Unit %s::unit-NNN` block describes the plugin", src))
	}
	return out
}

// CheckDir validates a plugin folder (plugin.json and plugin.kus.md) or a
// wrapper folder (manifest.json). Its files are read through fsafe,
// confined to dir: a FIFO, device, oversized file or symlink out of the
// folder is reported with the fsafe code, unread. Problems carry file, line and code;
// warnings are marked. A wrapper's allowlisting is not checked here.
func CheckDir(dir string) []*plugin.PluginError {
	descPath := filepath.Join(dir, "plugin.json")
	data, err := fsafe.ReadFile(dir, descPath, fsafe.MaxConfigBytes)
	switch {
	case err == nil:
		return checkPluginDir(dir, descPath, data)
	case !errors.Is(err, fs.ErrNotExist):
		return []*plugin.PluginError{{Ref: descPath, File: descPath, Stage: plugin.StageLoad, Code: fsafe.CodeOr(err, plugin.CodePluginFailed), Message: err.Error()}}
	}
	manPath := filepath.Join(dir, wrapper.ManifestFile)
	if _, err := os.Lstat(manPath); err == nil {
		_, errs := wrapper.LoadManifestIn(dir, manPath)
		if readmes, _ := filepath.Glob(filepath.Join(dir, "[Rr][Ee][Aa][Dd][Mm][Ee]*")); len(readmes) == 0 {
			errs = append(errs, &plugin.PluginError{Ref: manPath, File: dir, Stage: plugin.StageValidate, Code: CodeNoReadme, Warning: true,
				Message: "no README: say what the wrapper does, what it needs installed and what it sends where"})
		}
		return errs
	}
	return []*plugin.PluginError{{Ref: dir, File: dir, Stage: plugin.StageLoad, Code: CodeNoDescriptor,
		Message: "neither plugin.json (built-in plugin) nor manifest.json (wrapper) found"}}
}

func checkPluginDir(dir, descPath string, data []byte) []*plugin.PluginError {
	d, errs := plugin.ParseDescriptor(data, descPath)
	for _, e := range errs {
		e.Ref = descPath
	}
	id := ""
	if d != nil {
		id = d.ID
	}
	kuPath := filepath.Join(dir, "plugin.kus.md")
	kuData, err := fsafe.ReadFile(dir, kuPath, fsafe.MaxSourceBytes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return append(errs, &plugin.PluginError{Ref: kuPath, ID: id, File: kuPath, Stage: plugin.StageLoad,
			Code: fsafe.CodeOr(err, plugin.CodePluginFailed), Message: err.Error()})
	}
	if err != nil {
		return append(errs, &plugin.PluginError{Ref: kuPath, ID: id, File: kuPath, Stage: plugin.StageLoad, Code: CodeKUsMissing,
			Message: "plugin.kus.md is missing: every plugin ships KUs describing what it does and when to use it"})
	}
	if id == "" {
		id = filepath.Base(dir)
	}
	return append(errs, CheckKUs(id, kuData, kuPath)...)
}
