package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// TestASpanAnswersHowSoon: "how soon" asks for a span of time, which an
// answer giving one ("within 48 hours") answers although it never says
// "soon"; an answer that gives no span still owes the word.
func TestASpanAnswersHowSoon(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"soon": 4, "security report": 30, "expect respons": 200, "project maintain": 300})}
	target := "How soon will the maintainers get back to me about a security report"
	for _, tc := range []struct {
		name, text string
		want       plugin.Status
	}{
		{"gives a span", "Send a security report to the maintainers by email. You should expect a response within 48 hours.", plugin.StatusAccepted},
		{"gives none", "Send a security report to the maintainers by email. You should expect a response by email.", plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := plugintest.Text("SECURITY.md::policy", "Security Policy", "SECURITY.md", 1, tc.text)
			in := askCiting(k, target+"?", "describe", target)
			expect(t, validate(t, c, &in), tc.want, "soon")
		})
	}
}
