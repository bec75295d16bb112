package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/config"
	"github.com/mrpvm/mrpvm/internal/testtree"
	"github.com/mrpvm/mrpvm/llm"
	"github.com/mrpvm/mrpvm/llm/llmtest"
	"github.com/mrpvm/mrpvm/mcp"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/vm"
	wspace "github.com/mrpvm/mrpvm/workspace"
)

var files = map[string]string{
	"deploy.md":   "# Deploying Atlas\n\n## Blue-green rollout\n\nA blue-green rollout keeps two production fleets and switches the load balancer\nbetween them once the green fleet passes its smoke checks.\n\n## Rollback\n\nTo roll back, point the load balancer at the blue fleet again. Rollback takes\nunder two minutes.\n",
	"glossary.md": "# Glossary\n\n## Zeppelinite\n\nZeppelinite is the codename of the caching tier that fronts the search service.\n",
}

// workspace writes the files into a new folder.
func workspace(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testtree.WriteFiles(t, dir, files)
	testtree.WriteFiles(t, dir, extra)
	return dir
}

// connect opens the workspace as the command line does, serves it over an
// in-memory transport pair and returns the SDK client's session.
func connect(t *testing.T, ws string) *mcpsdk.ClientSession {
	t.Helper()
	for _, k := range []string{llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvOpenAIBaseURL, llm.EnvOpenAIAPIKey, llm.EnvOllamaHost, llm.EnvProbeOllama} {
		t.Setenv(k, "")
	}
	w, err := wspace.Open(wspace.Options{Root: ws, DBPath: filepath.Join(t.TempDir(), "kb.db")})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcpsdk.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- mcp.New(w, mcp.Options{}).Run(ctx, st) }()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		cs.Close()
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
		require.NoError(t, w.Close())
	})
	return cs
}

func call(t *testing.T, cs *mcpsdk.ClientSession, tool string, args map[string]any) *mcpsdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return res
}

func text(res *mcpsdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcpsdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestToolsHaveInputSchemas(t *testing.T) {
	cs := connect(t, workspace(t, nil))
	lt, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		schema, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		assert.Contains(t, string(schema), `"type":"object"`, tool.Name)
		if tool.Name == "ask" {
			assert.Contains(t, string(schema), `"required":["question"]`)
			assert.NotNil(t, tool.OutputSchema)
		}
	}
	slices.Sort(names)
	assert.Equal(t, []string{"ask", "ingest", "search", "trace"}, names)

	tt, err := cs.ListResourceTemplates(context.Background(), nil)
	require.NoError(t, err)
	var templates []string
	for _, x := range tt.ResourceTemplates {
		templates = append(templates, x.URITemplate)
	}
	assert.ElementsMatch(t, []string{"mrpvm://ku/{+id}", "mrpvm://source/{+path}"}, templates)
}

func TestAskReturnsACitedAnswerWhoseSourcesCanBeRead(t *testing.T) {
	cs := connect(t, workspace(t, nil))
	res := call(t, cs, "ask", map[string]any{"question": "What is Zeppelinite?"})
	require.False(t, res.IsError, text(res))
	var out mcp.AskOutput
	b, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, vm.StatusAnswered, out.Status)
	assert.Contains(t, out.Answer, "caching tier")
	assert.Contains(t, out.Answer, "[1]")
	require.NotEmpty(t, out.Sources)
	src := out.Sources[0]
	assert.Equal(t, "glossary.md", src.SourceID)
	assert.Equal(t, mcp.KUURI(src.KUID), src.Resource)
	assert.Contains(t, text(res), "Sources:\n[1] ")
	links := 0
	for _, c := range res.Content {
		if l, ok := c.(*mcpsdk.ResourceLink); ok && strings.HasPrefix(l.URI, mcp.KUScheme) {
			links++
		}
	}
	assert.Equal(t, len(out.Sources), links, "one resource link per source")

	rr, err := cs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: src.Resource})
	require.NoError(t, err)
	require.Len(t, rr.Contents, 1)
	assert.Contains(t, rr.Contents[0].Text, "Zeppelinite is the codename")
	assert.Contains(t, rr.Contents[0].Text, "glossary.md:")

	// The raw id works as well as the escaped one.
	rr, err = cs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: mcp.KUScheme + src.KUID})
	require.NoError(t, err)
	assert.Contains(t, rr.Contents[0].Text, "Zeppelinite")

	tr := call(t, cs, "trace", map[string]any{})
	require.False(t, tr.IsError, text(tr))
	assert.Contains(t, text(tr), out.RequestID)
	assert.Contains(t, text(tr), "goal-solver")

	_, err = cs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: mcp.KUScheme + "no-such-ku"})
	assert.Error(t, err)
}

func TestAskErrorsAreToolErrors(t *testing.T) {
	cs := connect(t, workspace(t, nil))
	res := call(t, cs, "ask", map[string]any{"question": "  "})
	assert.True(t, res.IsError)
	res, err := cs.CallTool(context.Background(), &mcpsdk.CallToolParams{Name: "ask", Arguments: map[string]any{}})
	if err == nil {
		assert.True(t, res.IsError, "a missing question is refused")
	}
	res = call(t, cs, "search", map[string]any{"query": "rollback", "plugin": "kb-nope"})
	assert.True(t, res.IsError)
	assert.Contains(t, text(res), "no enabled kb-plugin")
}

func TestSearchAndIngest(t *testing.T) {
	ws := workspace(t, nil)
	cs := connect(t, ws)
	res := call(t, cs, "search", map[string]any{"query": "roll back load balancer", "k": 3})
	require.False(t, res.IsError, text(res))
	var out mcp.SearchOutput
	b, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(b, &out))
	require.NotEmpty(t, out.Hits)
	assert.Equal(t, "deploy.md", out.Hits[0].SourceID)
	assert.LessOrEqual(t, len(out.Hits), 3)

	require.NoError(t, os.WriteFile(filepath.Join(ws, "new.md"), []byte("# Quokkas\n\nQuokkas live on Rottnest Island.\n"), 0o644))
	res = call(t, cs, "ingest", nil)
	require.False(t, res.IsError, text(res))
	var ing mcp.IngestOutput
	b, _ = json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(b, &ing))
	assert.Equal(t, 1, ing.Files)

	lr, err := cs.ListResources(context.Background(), nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	assert.Contains(t, uris, mcp.SourceURI("new.md"), "ingested sources are listed")
}

func TestSourceResourcesStayInsideTheWorkspace(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	require.NoError(t, os.WriteFile(outside, []byte("# Secret\n\nthe outside secret\n"), 0o644))
	ws := workspace(t, map[string]string{"notes/a b.md": "# Notes\n\nQuokkas are marsupials.\n"})
	cs := connect(t, ws)
	call(t, cs, "ingest", nil)

	rr, err := cs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: mcp.SourceURI("notes/a b.md")})
	require.NoError(t, err)
	assert.Equal(t, "# Notes\n\nQuokkas are marsupials.\n", rr.Contents[0].Text)

	for _, uri := range []string{
		mcp.SourceScheme + "../" + filepath.Base(filepath.Dir(outside)) + "/secret.md",
		mcp.SourceScheme + "..%2Fsecret.md",
		mcp.SourceScheme + url(outside),
		mcp.SourceScheme + "notes/missing.md",
	} {
		_, err := cs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: uri})
		assert.Error(t, err, uri)
	}

	// A stored source replaced by a link to a file outside the root is
	// not followed.
	require.NoError(t, os.Remove(filepath.Join(ws, "glossary.md")))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "glossary.md")))
	rr, err = cs.ReadResource(context.Background(), &mcpsdk.ReadResourceParams{URI: mcp.SourceURI("glossary.md")})
	if err == nil {
		assert.NotContains(t, rr.Contents[0].Text, "outside secret")
	}
}

func url(p string) string { return strings.TrimPrefix(filepath.ToSlash(p), "/") }

// TestWorkspaceCannotRedirectTheModel: a cloned repository naming its own
// model server in .mrpvm/llm-role-settings.json gets no prompt.
func TestWorkspaceCannotRedirectTheModel(t *testing.T) {
	attacker := llmtest.New(t, llmtest.Text("from the workspace's server"))
	cfg := `{"default": {"baseURL": "` + attacker.BaseURL() + `", "model": "m"}}`
	ws := workspace(t, map[string]string{filepath.Join(config.WorkspaceDir, config.LLMRolesFile): cfg})
	cs := connect(t, ws)
	res := call(t, cs, "ask", map[string]any{"question": "What is Zeppelinite?", "pins": map[string]any{"gs": "gs-llm-fast"}})
	assert.NotContains(t, text(res), "from the workspace's server")
	assert.Equal(t, 0, attacker.Hits())
}
