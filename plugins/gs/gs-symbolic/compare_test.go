package gssymbolic

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
)

func TestComparedItems(t *testing.T) {
	cases := []struct {
		target string
		want   []string
	}{
		{"the difference between scp and rsync", []string{"scp", "rsync"}},
		{"kill or killall: which one stops processes by name", []string{"kill", "killall"}},
		{"difference between ShouldBind and Bind in gin", []string{"ShouldBind", "Bind"}},
		{"TextFormatter or JSONFormatter in logrus: how do they differ", []string{"TextFormatter", "JSONFormatter"}},
		{"kb-fast vs kb-balanced vs kb-thinkingdb", []string{"kb-fast", "kb-balanced", "kb-thinkingdb"}},
		{"how BM25 ranks documents", nil},
	}
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			if got := comparedItems(tc.target); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("comparedItems = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestComparisonTable: a comparison is one row per item from that item's
// own source (prose before its commands), says so when the evidence lacks
// an item, and adds the statement that says which to pick.
func TestComparisonTable(t *testing.T) {
	scp := &kus.KU{ID: "s::1", Title: "scp", SourceID: "common/scp.md", Range: kus.Range{StartLine: 1},
		TextBody: "scp {{path/to/file}} {{host}}:{{path}}. Secure copy."}
	rsync := &kus.KU{ID: "r::1", Title: "rsync", SourceID: "common/rsync.md", Range: kus.Range{StartLine: 1},
		Claim: "Transfer files either to or from a remote host. Prefer rsync over scp when a transfer may be interrupted."}
	cases := []struct {
		name, target string
		ev           []plugin.ScoredKU
		want, not    []string
	}{
		{"both items", "difference between scp and rsync", []plugin.ScoredKU{{KU: rsync, Score: 1}, {KU: scp, Score: 0.5}},
			[]string{"| scp | Secure copy. [", "| rsync | Transfer files either to or from a remote host. [", "Prefer rsync over scp when"}, []string{"{{path"}},
		{"an item the evidence lacks", "difference between sftp and rsync for file transfers", []plugin.ScoredKU{{KU: rsync, Score: 1}},
			[]string{"| sftp | the evidence says nothing about sftp |", "| rsync | Transfer files"}, nil},
	}
	p, err := New(nil, plugin.Env{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := p.(plugin.GSPlugin).Solve(context.Background(), plugin.RunContext{},
				&plugin.SolveInput{Intents: []plugin.Intent{{ID: "i1", Act: "compare", Target: tc.target}}, Evidence: tc.ev})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.ResponseMarkdown, w) {
					t.Errorf("want %q in:\n%s", w, res.ResponseMarkdown)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(res.ResponseMarkdown, w) {
					t.Errorf("unwanted %q in:\n%s", w, res.ResponseMarkdown)
				}
			}
		})
	}
}
