package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPServerOverStdio runs `mrpvm mcp` as an MCP client launches it and
// talks to it with the official SDK's client: the four tools, a cited
// answer from ask, and the KU resource behind its first citation.
func TestMCPServerOverStdio(t *testing.T) {
	ws := writeWorkspace(t, askWorkspace+`-- glossary.md --
# Glossary

## Zeppelinite

Zeppelinite is the codename of the caching tier that fronts the search service.
`)
	cmd := exec.Command(binary, "mcp", "--workspace", ws, "--db", filepath.Join(t.TempDir(), "kb.db"))
	cmd.Env = append(cmd.Environ(), isolatedEnv(t)...)
	cmd.Env = append(cmd.Env, "MRPVM_LLM_BASE_URL=", "MRPVM_LLM_MODEL=", "OPENAI_BASE_URL=", "OPENAI_API_KEY=", "OLLAMA_HOST=")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "e2e", Version: "1"}, nil).
		Connect(ctx, &mcpsdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	defer func() { assert.NoError(t, cs.Close()) }()

	init := cs.InitializeResult()
	require.NotNil(t, init)
	assert.Equal(t, "mrpvm", init.ServerInfo.Name)
	assert.NotEmpty(t, init.ServerInfo.Version)

	lt, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	assert.Equal(t, []string{"ask", "ingest", "search", "trace"}, names)

	res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "What is Zeppelinite?"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	var out struct {
		Status  string `json:"status"`
		Answer  string `json:"answer"`
		Sources []struct {
			SourceID string `json:"sourceId"`
			Resource string `json:"resource"`
		} `json:"sources"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, "answered", out.Status)
	assert.Contains(t, out.Answer, "[1]")
	require.NotEmpty(t, out.Sources)
	assert.Equal(t, "glossary.md", out.Sources[0].SourceID)
	require.True(t, strings.HasPrefix(out.Sources[0].Resource, "mrpvm://ku/"), out.Sources[0].Resource)

	rr, err := cs.ReadResource(ctx, &mcpsdk.ReadResourceParams{URI: out.Sources[0].Resource})
	require.NoError(t, err)
	require.Len(t, rr.Contents, 1)
	assert.Contains(t, rr.Contents[0].Text, "caching tier")
}
