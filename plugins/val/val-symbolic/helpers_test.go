package valsymbolic

import (
	"context"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
)

// validate runs val-symbolic with its default options over in, with c as
// the knowledge base it reads statistics and sources from (nil for none).
func validate(t *testing.T, c plugin.Corpus, in *plugin.ValidateInput) *plugin.ValidateResult {
	t.Helper()
	p, err := New(nil, plugin.Env{PluginID: ID})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.(plugin.ValPlugin).Validate(context.Background(), plugin.RunContext{Corpus: c}, in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// expect fails the test unless res has status want and, when it rejects,
// a reason that contains says ("" for any reason).
func expect(t *testing.T, res *plugin.ValidateResult, want plugin.Status, says string) {
	t.Helper()
	if res.Status != want || res.Verdict != want {
		t.Fatalf("status %s verdict %s, want %s (%s)", res.Status, res.Verdict, want, res.Reason)
	}
	if want == plugin.StatusRejected && !strings.Contains(res.Reason, says) {
		t.Errorf("the reason should say %q: %s", says, res.Reason)
	}
}
