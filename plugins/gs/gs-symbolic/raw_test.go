package gssymbolic

import (
	"strings"
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/plugins/sdk"
)

// srcCorpus serves one source's text.
type srcCorpus map[string]string

func (srcCorpus) Sources() int                  { return 1 }
func (srcCorpus) SourceFreq(string) int         { return 1 }
func (c srcCorpus) SourceText(id string) []byte { return []byte(c[id]) }

const viperMD = "## Watching and re-reading config files\n\nViper can read a config file while your program runs.\n\nTo watch the config file for changes:\n\n```go\nviper.OnConfigChange(func(e fsnotify.Event) {\n\tfmt.Println(\"Config file changed:\", e.Name)\n})\nviper.WatchConfig()\n```\n\nDefaults are set with SetDefault:\n\n```yaml\nserver:\n  port: 8080\n```\n"

// TestAnswerKeepsMarkdown: an example's code stays a fenced block with its
// indentation, and a code line ending in ":" never opens an example.
func TestAnswerKeepsMarkdown(t *testing.T) {
	start := strings.Index(viperMD, "Viper can")
	k := &kus.KU{ID: "v::1", Title: "Watching and re-reading config files", SourceID: "viper/README.md",
		CharStart: start, CharEnd: len(viperMD), Range: kus.Range{StartLine: 3}}
	k.TextBody = viperMD[start:]
	k.Procedure = k.TextBody
	task := "watch a config file for changes with viper"
	res := solveProcedure([]sdk.ScoredKU{{KU: k, Score: 1}}, task, symbolic.ContentTerms(task), guidance{}, srcCorpus{"viper/README.md": viperMD})
	if res == nil {
		t.Fatal("no answer")
	}
	md := res.ResponseMarkdown
	for _, want := range []string{"- To watch the config file for changes:", "  ```go\n", "  \tfmt.Println(\"Config file changed:\", e.Name)\n", "  viper.WatchConfig()\n  ```"} {
		if !strings.Contains(md, want) {
			t.Errorf("answer lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "- server") || strings.Contains(md, "`viper.WatchConfig()`") {
		t.Errorf("code read as examples or as inline spans:\n%s", md)
	}
	p, _ := readRawProcedure(k, viperMD[start:])
	if len(p.examples) != 2 {
		t.Errorf("examples %d, want 2 (the yaml key is code, not an example)", len(p.examples))
	}
}

func TestCutBlock(t *testing.T) {
	var lines []string
	lines = append(lines, "```")
	for i := 0; i < 60; i++ {
		lines = append(lines, "  --option-"+strings.Repeat("x", i%5)+" does something")
	}
	lines[30] = "  --follow  keep reading as the file grows"
	lines = append(lines, "```")
	got := cutBlock(lines, symbolic.ContentTerms("follow the file as it grows"))
	if len(got) > maxBlockLines+3 {
		t.Errorf("%d lines kept", len(got))
	}
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "--follow") || !strings.HasPrefix(joined, "```") || !strings.HasSuffix(joined, "```") {
		t.Errorf("cut block:\n%s", joined)
	}
	if short := cutBlock(lines[:5], nil); len(short) != 5 {
		t.Errorf("a short block is kept whole")
	}
}

// TestWrappedDescriptionIsOneParagraph: the wrapped lines of a paragraph
// that introduces an example form one description, and link targets are
// dropped so every word is in the cited KU.
func TestWrappedDescriptionIsOneParagraph(t *testing.T) {
	raw := "Viper is a complete configuration solution for Go\napplications, see [the docs](https://example.org/viper). It supports:\n\n* setting defaults\n* live watching of config files\n"
	p, ok := readRawProcedure(&kus.KU{ID: "v::0"}, raw)
	if !ok || len(p.examples) != 1 {
		t.Fatalf("examples %+v", p.examples)
	}
	want := "Viper is a complete configuration solution for Go applications, see the docs. It supports"
	if p.examples[0].desc != want {
		t.Errorf("desc %q, want %q", p.examples[0].desc, want)
	}
	if got := strings.Join(p.examples[0].how, "\n"); got != "* setting defaults\n* live watching of config files" {
		t.Errorf("how %q", got)
	}
}
