package vm

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/wrapper"
)

// shellGS writes a gs-plugin wrapper running script in a temporary folder
// and returns it as a plugin: the real wrapper runner, a real process.
func shellGS(t *testing.T, id, script string) (plugin.Plugin, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-script wrappers")
	}
	dir := t.TempDir()
	manifest := `{"id": "` + id + `", "type": "gs-plugin", "version": "1.0.0", "description": "A shell-script wrapper of the tests.",
		"costClass": "cheap", "protocolVersion": 1, "command": "./run.sh", "timeoutMs": 10000}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(manifest), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\ncat >/dev/null\necho call >>calls\n"+script), 0o755))
	m, errs := wrapper.LoadManifest(filepath.Join(dir, "manifest.json"))
	require.Nil(t, errs)
	return wrapper.New(m, wrapper.Limits{}), dir
}

func callsOf(t *testing.T, dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "calls"))
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	return strings.Count(string(b), "call")
}

// TestWrapperConfidenceLabelKeepsTheAnswer: a wrapper writing a confidence
// label instead of a number still answers.
func TestWrapperConfidenceLabelKeepsTheAnswer(t *testing.T) {
	kb := &testKB{Base: descriptor(t, "kb-t", plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::0::0", "Alpha uses beta.")}}
	gs, _ := shellGS(t, "gs-wrap", "printf '## Plugin Result\\nStatus: success\\nConfidence: high\\nResult: Alpha uses beta.\\n'\n")
	m, _ := setup(t, nil, kb, gs)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status, "errors: %v", resp.Trace.Errors)
	assert.Equal(t, "Alpha uses beta.", resp.AnswerMarkdown)

	// An unreadable confidence is dropped with a note, never the answer.
	gs2, _ := shellGS(t, "gs-wrap2", "printf '## Plugin Result\\nStatus: success\\nConfidence: fairly sure\\nResult: Alpha uses beta.\\n'\n")
	m2, _ := setup(t, nil, kb, gs2)
	resp, err = m2.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.Equal(t, StatusAnswered, resp.Status, "errors: %v", resp.Trace.Errors)
	assert.Contains(t, strings.Join(resp.Trace.Notes, "\n"), `Confidence "fairly sure"`)
}

// TestBrokenWrapperIsCalledOncePerRequest: a wrapper that prints no valid
// result is not called again for every further evidence view.
func TestBrokenWrapperIsCalledOncePerRequest(t *testing.T) {
	var ps []plugin.Plugin
	for _, id := range []string{"kb-a", "kb-b", "kb-c", "kb-d"} {
		ps = append(ps, &testKB{Base: descriptor(t, id, plugin.TypeKB, ""), units: []*kus.KU{leaf("doc.md::"+id, "Alpha uses beta, says "+id+".")}})
	}
	gs, dir := shellGS(t, "gs-broken", "echo 'no result block here'\n")
	ps = append(ps, gs)
	m, _ := setup(t, func(e *config.Engine) { e.MaxPluginsPerStage = 10 }, ps...)
	resp, err := m.Ask(context.Background(), Request{Question: "What does alpha use?"})
	require.NoError(t, err)
	assert.NotEqual(t, StatusAnswered, resp.Status)
	assert.Equal(t, 1, callsOf(t, dir), "stages: %v", stagesOf(resp))
	assert.Contains(t, errorCodes(resp), plugin.CodeWrapperBadOutput)
	assert.Contains(t, strings.Join(resp.Trace.Notes, "\n"), "gs-broken failed with wrapper_bad_output; it is not called again")
}
