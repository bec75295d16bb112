// Package suitetest runs one of the original MRP-VM evaluation suites
// (suiteXX/eval.json and story.nl, kept in shared/data/mrpvm-eval beside the
// checkout) through the VM on the offline symbolic path, for the tests in
// test/evaluation/suiteXX.
package suitetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mrpvm/mrpvm/evalsuite"
	_ "github.com/mrpvm/mrpvm/plugins/all"
	"github.com/mrpvm/mrpvm/test/internal/tldrpages"
)

// EnvSuites names the folder holding suite01, suite02, ... when it is not
// shared/data/mrpvm-eval beside the checkout.
const EnvSuites = "MRPVM_EVAL_SUITES"

// Dir is the folder of the named suite; the test is skipped when it is
// not available.
func Dir(t *testing.T, name string) string {
	t.Helper()
	base := os.Getenv(EnvSuites)
	if base == "" {
		root, err := tldrpages.ModuleRoot()
		require.NoError(t, err)
		base = filepath.Join(filepath.Dir(root), "shared", "data", "mrpvm-eval")
	}
	dir := filepath.Join(base, name)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("suite %s not available: %v", name, err)
	}
	return dir
}

// Run runs the named suite with no model and logs every question's outcome
// and the suite's figures.
func Run(t *testing.T, name string) *evalsuite.SuiteResult {
	t.Helper()
	res, err := evalsuite.Run(context.Background(), Dir(t, name), evalsuite.Options{NoLLM: true})
	require.NoError(t, err)
	for _, q := range res.Questions {
		t.Logf("%s [%s] answer=%v context=%v missing=%v unwanted=%v", q.ID, q.Status, q.AnswerPass, q.ContextPass, q.Missing, q.Unwanted)
	}
	t.Logf("%s: answer pass %.2f, context pass %.2f, context F1 %.2f", name, res.AnswerPassRate, res.ContextPassRate, res.ContextF1)
	return res
}

// AssertGrounded checks a story suite that needs a model to reason: on the
// symbolic path every answer must be grounded (no-context, or statements
// copied from the story with citations).
func AssertGrounded(t *testing.T, name string, res *evalsuite.SuiteResult) {
	t.Helper()
	for _, q := range res.Questions {
		switch q.Status {
		case "no-context":
		case "answered":
			assert.Contains(t, q.Answer, "Sources:", "%s/%s: an answer must cite its sources", name, q.ID)
		default:
			t.Errorf("%s/%s: status %s", name, q.ID, q.Status)
		}
	}
}
