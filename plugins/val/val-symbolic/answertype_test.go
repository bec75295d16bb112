package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

// srcCorpus serves source texts and counts every term once.
type srcCorpus map[string]string

func (srcCorpus) Documents() int                { return 100 }
func (srcCorpus) DocFreq(string) int            { return 1 }
func (c srcCorpus) SourceText(id string) []byte { return []byte(c[id]) }

// TestAnswerTypeAndQuotedCode: a how-to answer that shows nothing to do is
// rejected when the evidence has something to show; quoted code is checked
// verbatim against the cited source's Markdown (words of code are not
// prose terms); the corrected query covers a misspelt question.
func TestAnswerTypeAndQuotedCode(t *testing.T) {
	const md = "## Upload files\n\nSave an uploaded file:\n\n```go\nfor _, file := range files {\n  c.SaveUploadedFile(file, dst)\n}\n```\n"
	upload := &kus.KU{ID: "g::1", Title: "Upload files", SourceID: "gin/doc.md", Range: kus.Range{StartLine: 1},
		Claim: "Save an uploaded file.", TextBody: "Save an uploaded file:", CharStart: 0, CharEnd: len(md)}
	about := plugintest.Claim("v::1", "What is Viper?", "viper/README.md", 1, "Viper supports live watching and re-reading of config files.")
	watch := plugintest.Claim("v::2", "Watching config files", "viper/README.md", 9, "Call `viper.WatchConfig()` to watch config files.")
	const page = "# Installing Frobnicator\n\nFrobnicator tidies photo libraries.\n\n## Requirements\n\nFrobnicator needs libjpeg 9 and 2 GB of disk space.\n"
	install := &kus.KU{ID: "i::summary", Title: "Installing Frobnicator", SourceID: "guide/install.md", Range: kus.Range{StartLine: 1},
		TextBody: "Frobnicator tidies photo libraries.", CharStart: 0, CharEnd: len(page)}
	c := srcCorpus{"gin/doc.md": md, "guide/install.md": page}
	uploaded := func(code string) string {
		return "Save an uploaded file [1]:\n\n```go\n" + code + "\n```\n\nSources:\n[1] Upload files — gin/doc.md:1\n"
	}
	installed := func(requirement string) string {
		return "Installing Frobnicator [1]: Frobnicator tidies photo libraries.\n\n## Requirements\n\n" + requirement + "\n\nSources:\n[1] Installing Frobnicator — guide/install.md:1\n"
	}
	cases := []struct {
		name, target, searched, answer string
		ev                             []*kus.KU
		want                           plugin.Status
	}{
		{"quoted code found in the source", "save an uploaded file", "", uploaded("for _, file := range files {\n  c.SaveUploadedFile(file, dst)\n}"), []*kus.KU{upload}, plugin.StatusAccepted},
		{"quoted code not in the source", "save an uploaded file", "", uploaded("os.RemoveAll(dst)"), []*kus.KU{upload}, plugin.StatusRejected},
		{"how-to without anything to do", "watch config files with viper", "", citing(about), []*kus.KU{about, watch}, plugin.StatusRejected},
		{"how-to with code", "watch config files with viper", "", citing(watch), []*kus.KU{about, watch}, plugin.StatusAccepted},
		{"a section quoted from under the cited summary", "install frobnicator", "", installed("Frobnicator needs libjpeg 9 and 2 GB of disk space."), []*kus.KU{install}, plugin.StatusAccepted},
		{"a statement found nowhere under the cited KU", "install frobnicator", "", installed("Frobnicator needs a licence server and a dongle."), []*kus.KU{install}, plugin.StatusRejected},
		{"misspelt question, corrected query covered", "wach config fils vipre", "watch config files viper", citing(watch), []*kus.KU{watch}, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := plugintest.Scored(tc.ev...)
			in := &plugin.ValidateInput{Intents: []plugin.Intent{{Act: "implement", Target: tc.target}}, Answer: tc.answer, Evidence: ev, SearchedFor: tc.searched}
			expect(t, validate(t, c, in), tc.want, "")
		})
	}
}
