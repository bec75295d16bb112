package lsp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mrpvm/mrpvm/version"
)

func TestInitializeReportsBuildVersionInServerInfo(t *testing.T) {
	rc := startRaw(t, Options{UserDir: "-", NoLLM: true})
	rc.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}})
	m, err := rc.response("1", 5*time.Second)
	if err != nil || m.Error != nil {
		t.Fatalf("initialize: %v %+v", err, m.Error)
	}
	var res struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		t.Fatalf("initialize result: %v: %s", err, m.Result)
	}
	if res.ServerInfo.Name != "mrpvm" || res.ServerInfo.Version != version.Version() || res.ServerInfo.Version == "" {
		t.Errorf("serverInfo = %+v, want mrpvm %s", res.ServerInfo, version.Version())
	}
}
