package valsymbolic

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// corpus is a knowledge base's source frequencies, as plugin.Corpus gives them.
type corpus struct {
	n  int
	df map[string]int
}

func (c corpus) Documents() int               { return c.n }
func (c corpus) DocFreq(t string) int         { return c.df[t] }
func (c corpus) SourceText(string) []byte     { return nil }
func freq(words string, n int) map[string]int { return freqs(map[string]int{words: n}) }

// freqs gives each term of each group of words the group's count; a term
// in two groups is a mistake of the test.
func freqs(groups map[string]int) map[string]int {
	out := map[string]int{}
	for words, n := range groups {
		for _, t := range text.Terms(words) {
			if _, dup := out[t]; dup {
				panic("freqs: " + t + " is in two groups")
			}
			out[t] = n
		}
	}
	return out
}

// TestKeyCoverageWeighsRareTerms: an answer that shares only the common
// words of the question is rejected; one that covers its rare words, or a
// misspelling of them, is accepted.
func TestKeyCoverageWeighsRareTerms(t *testing.T) {
	df := freqs(map[string]int{"line show print number": 900, "life game cells": 3, "static files serve": 20})
	c := corpus{n: 1000, df: df}
	life := plugin.ScoredKU{KU: plugintest.Claim("l::1", "life", "common/life.md", 1, "Run Conway's game of life with cells on a grid.")}
	static := plugin.ScoredKU{KU: plugintest.Claim("m::1", "Static Files", "mux/README.md", 3, "Serve static files from a folder with a file server.")}
	cases := []struct {
		name, target, answer string
		ev                   plugin.ScoredKU
		want                 plugin.Status
	}{
		{"rare word missing", "meaning of life", "Run Conway's game of life with cells on a grid. [1]\n\nSources:\n[1] life — common/life.md:1\n", life, plugin.StatusRejected},
		{"rare words covered", "game of life", "Run Conway's game of life with cells on a grid. [1]\n\nSources:\n[1] life — common/life.md:1\n", life, plugin.StatusAccepted},
		{"misspelt words covered", "serv statik files", "Serve static files from a folder with a file server. [1]\n\nSources:\n[1] Static Files — mux/README.md:3\n", static, plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{Intents: intent(tc.target), Answer: tc.answer, Evidence: []plugin.ScoredKU{tc.ev}})
			expect(t, res, tc.want, "meaning")
		})
	}
}

// TestCorrectedWordsAreCoveredAsAsked: when the query's spelling
// correction changed a word of the question ("allow" read as "alloc"), an
// answer that says the word as asked, or a compound that opens with it
// ("allowlists"), covers it, for the key terms and for a how-to's action.
func TestCorrectedWordsAreCoveredAsAsked(t *testing.T) {
	df := freqs(map[string]int{"external wrapper run engine user": 300, "alloc": 4, "allow": 40})
	c := corpus{n: 1000, df: df}
	wrappers := plugin.ScoredKU{KU: plugintest.Text("r::1", "External wrappers", "README.md", 260, "An external wrapper runs only when the user's engine.json allowlists it:\n\n```json\n{\"pluginAllowlist\": [\"my-helper\"]}\n```\n")}
	answer := "External wrappers [1]: An external wrapper runs only when the user's engine.json allowlists it:\n\n" +
		"```json\n{\"pluginAllowlist\": [\"my-helper\"]}\n```\n\nSources:\n[1] External wrappers — README.md:260\n"
	asked := func(prompt string) plugin.ValidateInput {
		return plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt}, SearchedFor: "alloc an external wrapper to run",
			Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: "alloc an external wrapper to run"}},
			Answer:  answer, Evidence: []plugin.ScoredKU{wrappers}}
	}
	expectInputs(t, c, `"alloc" is not covered`, []inputCase{
		{"the word as asked", asked("How do I allow an external wrapper to run?"), plugin.StatusAccepted},
		{"another word corrected the same way", asked("How do I alocate an external wrapper to run?"), plugin.StatusRejected},
	})
}

// TestFunctionWordsAreNotKeyTerms: "besides" and "else" say how a question
// relates to what it asks about, not what it asks about, however rare they
// are in the knowledge base.
func TestFunctionWordsAreNotKeyTerms(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"create key": 200, "ssh-keygen": 3, "besides else": 2})}
	keygen := plugin.ScoredKU{KU: plugintest.Claim("k::1", "ssh-keygen", "common/ssh-keygen.md", 3, "Generate ssh keys used for authentication, password-less logins, and other things.")}
	res := validate(t, c, &plugin.ValidateInput{Intents: intent("Besides creating keys, what else can ssh-keygen do"),
		Answer: "Generate ssh keys used for authentication, password-less logins, and other things. [1]\n\nSources:\n[1] ssh-keygen — common/ssh-keygen.md:3\n", Evidence: []plugin.ScoredKU{keygen}})
	expect(t, res, plugin.StatusAccepted, "")
}

// TestSubordinatorsAreNotKeyTerms: "beyond", "unless", "whether" and
// their kind relate what a question asks to something else; a source
// that answers the rest answers it, however rare the word is.
func TestSubordinatorsAreNotKeyTerms(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"package offer": 300, "router chi": 200, "beyond unless whether": 1})}
	extras := plugin.ScoredKU{KU: plugintest.Claim("c::1", "Packages", "chi/README.md", 3, "Besides the router, chi offers packages.")}
	for _, q := range []string{"Which packages does chi offer beyond the router", "Which packages does chi offer, unless the router"} {
		res := validate(t, c, &plugin.ValidateInput{Intents: intent(q),
			Answer: "Besides the router, chi offers packages. [1]\n\nSources:\n[1] Packages — chi/README.md:3\n", Evidence: []plugin.ScoredKU{extras}})
		expect(t, res, plugin.StatusAccepted, "")
	}
}

// TestAnUnknownNameNeedsTheRestCovered: a question that names something
// the knowledge base holds nowhere ("Obsidian") is about it, and a source
// that shares the question's other words does not answer it; the same
// word written in lower case may be a paraphrase and weighs as before.
func TestAnUnknownNameNeedsTheRestCovered(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"migrate knowledge base sync": 20})}
	migrating := plugintest.Claim("m::1", "Migrating", "docs/migrate.md", 3, "Migrate the knowledge base and keep it in sync.")
	asked := func(prompt string) plugin.ValidateInput {
		return askCiting(migrating, prompt, "implement", "migrate my knowledge base from obsidian sync")
	}
	expectInputs(t, c, "which no source of the knowledge base holds", []inputCase{
		{"a name", asked("How do I migrate my knowledge base from Obsidian Sync?"), plugin.StatusRejected},
		{"a lower-case word", asked("How do I migrate my knowledge base from obsidian sync?"), plugin.StatusAccepted},
	})
}

// TestFollowUpIsAnsweredOnWhatItAsks: a follow-up completed with its
// topic is not answered by a passage that covers only the topic every
// source of it shares ("config file viper"), however much of the completed
// question that is; a passage that says what the user asked is. A
// question without earlier turns, and a session's second question, are
// judged as a whole (earlierTurns).
func TestFollowUpIsAnsweredOnWhatItAsks(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"reload": 30, "file change": 300, "config viper": 20})}
	features := plugin.ScoredKU{KU: plugintest.Text("v::48", "What is Viper?", "viper/README.md", 48, "Viper reads config files and watches them for changes.\nViper reloads the config file when it changes.")}
	target := "Can it reload when the file changes (config file viper)?"
	// The conversation a plugin sees holds the turns before the current
	// question: the VM records a turn once it is answered.
	session := []plugin.Turn{{Role: "user", Text: "How do I read a config file with viper?"}, {Role: "assistant", Text: "..."},
		{Role: "user", Text: "Where does it look for the file?"}, {Role: "assistant", Text: "..."}}
	cases := []struct {
		name, answer string
		turns        []plugin.Turn
		want         plugin.Status
	}{
		{"only the topic", "Viper reads config files and watches them for changes. [1]\n\nSources:\n[1] What is Viper? — viper/README.md:48\n", session, plugin.StatusRejected},
		{"what was asked", "Viper reloads the config file when it changes. [1]\n\nSources:\n[1] What is Viper? — viper/README.md:48\n", session, plugin.StatusAccepted},
		{"no earlier turn", "Viper reads config files and watches them for changes. [1]\n\nSources:\n[1] What is Viper? — viper/README.md:48\n", nil, plugin.StatusAccepted},
		{"the second question", "Viper reads config files and watches them for changes. [1]\n\nSources:\n[1] What is Viper? — viper/README.md:48\n", session[:2], plugin.StatusAccepted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := plugintest.New[plugin.ValPlugin](t, New, plugin.Env{PluginID: ID})
			res, err := p.Validate(context.Background(), plugin.RunContext{Corpus: c, Conversation: tc.turns}, &plugin.ValidateInput{
				Payload: plugin.Payload{Prompt: target}, SearchedFor: target, Intents: intent(target), Answer: tc.answer, Evidence: []plugin.ScoredKU{features}})
			if err != nil {
				t.Fatal(err)
			}
			expect(t, res, tc.want, `the follow-up "Can it reload when the file changes"`)
		})
	}
}

// TestFollowUpIsJudgedOnWordsItsPageUses: a follow-up's own word that the
// page it is answered from never uses ("reload" of a page that says
// "watching and re-reading") is one no passage of that page can cover:
// the answer is judged on the words the page does use. A page that says
// the word leaves it asked.
func TestFollowUpIsJudgedOnWordsItsPageUses(t *testing.T) {
	df := freqs(map[string]int{"reload": 30, "file change": 300, "config viper": 20})
	watching := plugin.ScoredKU{KU: plugintest.Text("v::60", "Watching and re-reading config files", "viper/README.md", 60,
		"Viper can read a config file while running and run a function each time a file change occurs.")}
	target := "Can it reload when the file changes (config file viper)?"
	// The conversation a plugin sees holds the turns before the current
	// question: the VM records a turn once it is answered.
	session := []plugin.Turn{{Role: "user", Text: "How do I read a config file with viper?"}, {Role: "assistant", Text: "..."},
		{Role: "user", Text: "Where does it look for the file?"}, {Role: "assistant", Text: "..."}}
	answer := "Viper can read a config file while running and run a function each time a file change occurs. [1]\n\nSources:\n[1] Watching and re-reading config files — viper/README.md:60\n"
	for _, tc := range []struct {
		name, page string
		want       plugin.Status
	}{
		{"the page never says it", "# viper\n\nViper can read a config file while running and run a function each time a file change occurs.\n", plugin.StatusAccepted},
		{"the page says it elsewhere", "# viper\n\nViper can read a config file while running and run a function each time a file change occurs.\n\nOther tools reload it.\n", plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"viper/README.md": tc.page}}
			p := plugintest.New[plugin.ValPlugin](t, New, plugin.Env{PluginID: ID})
			res, err := p.Validate(context.Background(), plugin.RunContext{Corpus: c, Conversation: session}, &plugin.ValidateInput{
				Payload: plugin.Payload{Prompt: target}, SearchedFor: target, Intents: intent(target), Answer: answer, Evidence: []plugin.ScoredKU{watching}})
			if err != nil {
				t.Fatal(err)
			}
			expect(t, res, tc.want, `the follow-up "Can it reload when the file changes"`)
		})
	}
}

// TestWhatDoesXMeanAsksWhatXIs: in "What does kb_corrupt mean?" the verb
// "mean" is the question's, not a word the answer must hold.
func TestWhatDoesXMeanAsksWhatXIs(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"kb_corrupt": 3, "mean": 10, "file knowledge base damaged": 200})}
	damaged := plugin.ScoredKU{KU: plugintest.Text("t::5", "The knowledge base file is damaged", "docs/troubleshooting.md", 5, "Commands fail with kb_corrupt when the knowledge base file is damaged or truncated.")}
	answer := "Commands fail with kb_corrupt when the knowledge base file is damaged or truncated. [1]\n\nSources:\n[1] The knowledge base file is damaged — docs/troubleshooting.md:5\n"
	for _, prompt := range []string{"What does kb_corrupt mean?", "does kb_corrupt mean"} {
		res := validate(t, c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt}, Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: "does kb_corrupt mean"}},
			Answer: answer, Evidence: []plugin.ScoredKU{damaged}})
		expect(t, res, plugin.StatusAccepted, "")
	}
}

// viperWriting is viper's unit on writing config files; viperWritingAnswer
// quotes it.
func viperWriting() plugin.ScoredKU {
	return plugin.ScoredKU{KU: plugintest.Text("v::200", "Writing Config Files", "viper/README.md", 200, "viper.WriteConfig() writes the current viper configuration to the predefined path.")}
}

const viperWritingAnswer = "Writing Config Files [1]: viper.WriteConfig() writes the current viper configuration to the predefined path.\n\nSources:\n[1] Writing Config Files — viper/README.md:200\n"

// TestWordsTheKnowledgeBaseNeverUsesAreNoEvidence: a question word no
// source holds ("disk" over documentation that never says it) can be in
// no passage, right or wrong, so an answer that covers the rest is
// accepted; but it weighs as the most common known word of the question,
// so a question mostly about things the knowledge base lacks is not
// answered by a page that shares its other words, and one made only of
// such words is not answered at all; a known rare word still counts.
func TestWordsTheKnowledgeBaseNeverUsesAreNoEvidence(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"config file": 300, "write": 100, "viper": 20, "yaml": 1})}
	writing, answer := viperWriting(), viperWritingAnswer
	cases := []struct {
		name, target string
		want         plugin.Status
	}{
		{"an unknown word", "write the viper config file back to disk", plugin.StatusAccepted},
		{"only unknown words", "flibber the wozzle", plugin.StatusRejected},
		{"a known rare word missing", "write the viper config file as yaml", plugin.StatusRejected},
		{"mostly unknown words", "viper config in a kubernetes helm chart", plugin.StatusRejected},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, c, &plugin.ValidateInput{Intents: intent(tc.target), Answer: answer, Evidence: []plugin.ScoredKU{writing}})
			expect(t, res, tc.want, "")
		})
	}
}

// TestParticlesBelongToTheVerb: "back" in "write the config back" is part
// of the action, which a page names with the verb alone, not a thing the
// answer must hold; as the action itself ("back up") it is asked for.
func TestParticlesBelongToTheVerb(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"config file": 300, "write": 100, "viper": 20, "back": 1})}
	writing, answer := viperWriting(), viperWritingAnswer
	for _, tc := range []struct {
		target string
		want   plugin.Status
	}{
		{"write the viper config file back", plugin.StatusAccepted},
		{"back up the viper config file", plugin.StatusRejected},
	} {
		res := validate(t, c, &plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}}, Answer: answer, Evidence: []plugin.ScoredKU{writing}})
		expect(t, res, tc.want, "")
	}
}

// TestAWordTheSpellingCorrectionReplacedIsStillAsked: "office", a word the
// knowledge base never uses, read as "offici" (of "official") is still
// what the question asks about, and an answer that says "official" does
// not cover it; a typing mistake mended the same way ("oficial") is
// covered by the word it was mended to.
//
// A hasty query's loosely tied word is a slip: "extention" analyses to
// "extent", an English word whose only relative the knowledge base holds
// is a broader one ("level"). Read as "extension" in a query with no other
// slip, it is still what the question asks about, and an answer that says
// "extension" does not cover it; in a query with another slip ("binray")
// it is one more slip, covered by the word it was mended to.
func TestAWordTheSpellingCorrectionReplacedIsStillAsked(t *testing.T) {
	official := corpus{n: 100, df: freqs(map[string]int{"mrpvm": 100, "server entry": 30, "official client sdk": 3})}
	sdk := plugintest.Text("r::1", "AI agents: mrpvm mcp", "README.md", 541, "The tests drive the server with the official Go SDK's client.")
	extension := corpus{n: 100, df: freqs(map[string]int{"mrpvm": 100, "level path": 30, "code binary": 5, "extension": 3})}
	vscode := plugintest.Text("r::1", "Troubleshooting", "README.md", 467, "The VS Code extension cannot find the mrpvm binary: set mrpvm.server.path.")
	for _, tc := range []struct {
		name             string
		c                corpus
		ku               *kus.KU
		prompt, searched string
		want             plugin.Status
	}{
		{"an English word replaced", official, sdk, "Where is the mrpvm team's office?", "Where is the mrpvm team's offici", plugin.StatusRejected},
		{"a typing mistake mended", official, sdk, "Which mrpvm oficial client is there?", "Which mrpvm offici client is there", plugin.StatusAccepted},
		{"one word corrected", extension, vscode, "the mrpvm extention", "the mrpvm extension", plugin.StatusRejected},
		{"two words corrected", extension, vscode, "the mrpvm extention binray", "the mrpvm extension binary", plugin.StatusAccepted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := validate(t, tc.c, &plugin.ValidateInput{
				Payload:     plugin.Payload{Prompt: tc.prompt},
				Intents:     []plugin.Intent{{ID: "i1", Act: "identify", Target: strings.TrimSuffix(tc.prompt, "?")}},
				SearchedFor: tc.searched,
				Answer:      citing(tc.ku), Evidence: []plugin.ScoredKU{{KU: tc.ku, Score: 1}}})
			expect(t, res, tc.want, "is not covered")
		})
	}
}

// TestVersusNamesNothingAsked: "vs" joins the things a comparison weighs;
// an answer on both covers the question without saying "vs".
func TestVersusNamesNothingAsked(t *testing.T) {
	rar := symbolic.NewRarity(corpus{n: 1000, df: freqs(map[string]int{"git": 300, "switch checkout": 20, "vs versus": 2})})
	for _, target := range []string{"git switch vs git checkout", "git switch versus git checkout"} {
		if cov, worst := keyCoverage(target, symbolic.TermSet("git switch and git checkout"), rar, nil); cov != 1 {
			t.Errorf("%q: coverage %.2f, %q not covered; want 1", target, cov, worst)
		}
	}
}

// TestCoverageNamesADiscountedMiss: when the only terms a target misses
// count at a discount (a word of very many senses: "clear"), the coverage
// names the heaviest of them as not covered, not "".
func TestCoverageNamesADiscountedMiss(t *testing.T) {
	rar := symbolic.NewRarity(corpus{n: 1000, df: freqs(map[string]int{"clear": 40, "logrus": 20})})
	cov, worst := keyCoverage("clear them (logrus)", symbolic.TermSet("logrus levels"), rar, nil)
	if cov >= 1 || worst != "clear" {
		t.Errorf("coverage %.2f, %q not covered; want below 1 with \"clear\" not covered", cov, worst)
	}
}

const lsofPage = `# lsof

> Lists open files and the corresponding processes.

- Find the processes that have a given local TCP port open:

` + "`lsof -i :{{port}}`" + `

- Find the processes that use the default web port:

` + "`lsof -i :80`" + `
`

// expectPageAnswers validates each case's answer to the how-to asking
// target, with page (at path) as the one evidence unit and the one source
// text, and expects the case's status (a rejection saying says).
func expectPageAnswers(t *testing.T, df map[string]int, path, page, target, says string, cases []answerCase) {
	t.Helper()
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{path: page}}
	expectAnswers(t, c, plugin.ValidateInput{
		Intents:  []plugin.Intent{{ID: "i1", Act: "implement", Target: target}},
		Evidence: []plugin.ScoredKU{{KU: descriptionUnit(t, path, page), Score: 1, Level: kus.LevelLeaf}}}, "", says, cases)
}

const ipRoutePage = `# ip route

> IP Routing table management subcommand.

- Show which route will be used by the kernel to reach an IP address:

` + "`ip route get {{destination_ip}}`" + `

- Show the route used to reach the default gateway:

` + "`ip route show default`" + `
`

// TestAPlaceholderCoversALiteralValue: "port 8080" is answered by a
// command that leaves the port to fill in, not by one that names another
// number; an address the question gives ("reach 8.8.8.8") is a value the
// user fills in, as a number is, and a command that leaves it to fill in
// covers it.
func TestAPlaceholderCoversALiteralValue(t *testing.T) {
	const lsof, ipRoute = "Lists open files and the corresponding processes.", "IP Routing table management subcommand."
	for _, tc := range []struct {
		name, path, page, target, says string
		df                             map[string]int
		answers                        []answerCase
	}{
		{"a number", "common/lsof.md", lsofPage, "find out which process is using port 8080", "\"8080\" is not covered",
			map[string]int{"find open files process given local default web": 400, "port tcp": 40, "8080": 5, "lsof": 2}, []answerCase{
				{"a placeholder", tldrExample{"lsof", "common/lsof.md", lsof, "Find the processes that have a given local TCP port open", "lsof -i :{{port}}"}.answer(), nil, plugin.StatusAccepted},
				{"another number", tldrExample{"lsof", "common/lsof.md", lsof, "Find the processes that use the default web port", "lsof -i :80"}.answer(), nil, plugin.StatusRejected},
			}},
		{"an address", "linux/ip-route.md", ipRoutePage, "see which route would be used to reach 8.8.8.8", "\"8.8.8.8\" is not covered",
			map[string]int{"show use default gateway manag subcommand": 400, "rout kernel reach address": 40, "8.8.8.8": 1, "ip": 30}, []answerCase{
				{"a placeholder", tldrExample{"ip route", "linux/ip-route.md", ipRoute, "Show which route will be used by the kernel to reach an IP address", "ip route get {{destination_ip}}"}.answer(), nil, plugin.StatusAccepted},
				{"no placeholder", tldrExample{"ip route", "linux/ip-route.md", ipRoute, "Show the route used to reach the default gateway", "ip route show default"}.answer(), nil, plugin.StatusRejected},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectPageAnswers(t, freqs(tc.df), tc.path, tc.page, tc.target, tc.says, tc.answers)
		})
	}
	expectEach(t, "isLiteralValue", isLiteralValue, map[string]bool{"8080": true, "8.8.8.8": true, "127.0.0.1:8080": true, "1.5k": false, "v2": false, "8.": false})
}

// TestACompletedPartIsJudgedOnItsOwnWords: a part completed with the topic
// of the part before it ("keep watching for new ones (kernel messages in
// a human-readable way)") is answered by what covers its own words and
// some of the topic's; the topic's other words were the earlier part's
// to answer. An answer on its words with nothing of the topic is not.
func TestACompletedPartIsJudgedOnItsOwnWords(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"keep new show": 300, "wait": 100, "kernel message": 40, "human-readable": 20, "dmesg": 3})}
	dmesg := plugin.ScoredKU{KU: plugintest.Text("d::3", "dmesg", "linux/dmesg.md", 3, "Write the kernel messages to stdout. Show kernel messages in a human-readable way. Show kernel messages and keep waiting for new ones.")}
	disk := plugin.ScoredKU{KU: plugintest.Text("w::3", "watch", "common/watch.md", 3, "Keep waiting for new ones.")}
	target := "keep waiting for new ones (kernel messages in a human-readable way)"
	expectAnswers(t, c, plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: intent(target),
		Evidence: []plugin.ScoredKU{dmesg, disk}}, "", "", []answerCase{
		{"its words and the topic's head", "Show kernel messages and keep waiting for new ones. [1]\n\nSources:\n[1] dmesg — linux/dmesg.md:3\n", nil, plugin.StatusAccepted},
		{"its words alone", "Keep waiting for new ones. [1]\n\nSources:\n[1] watch — common/watch.md:3\n", nil, plugin.StatusRejected},
	})
}

// TestASynonymTheAnswerSaysCoversAWord: a key word the answer says with a
// synonym ("watch" as "follow") is covered by what the answer says from a
// source, not by the source's title.
func TestASynonymTheAnswerSaysCoversAWord(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"new line log": 300, "watch follow": 50, "tail": 3})}
	target := "watch new lines of a log"
	// titled answers with answer from the tail page titled title.
	titled := func(title, answer string) plugin.ValidateInput {
		k := plugintest.Text("t::3", title, "common/tail.md", 3, "Follow new lines of a log: `tail --follow {{path/to/log}}`\nPrint new lines of a log: `tail {{path/to/log}}`")
		return plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: intent(target), Answer: answer, Evidence: plugintest.Scored(k)}
	}
	expectInputs(t, c, "", []inputCase{
		{"said by the answer", titled("tail", "Follow new lines of a log: `tail --follow {{path/to/log}}` [1]\n\nSources:\n[1] tail — common/tail.md:3\n"), plugin.StatusAccepted},
		{"only in the title", titled("follow", "Print new lines of a log: `tail {{path/to/log}}` [1]\n\nSources:\n[1] follow — common/tail.md:3\n"), plugin.StatusRejected},
	})
}

// TestAClippedWordIsCoveredByItsWord: a clipped word the general lexicon
// does not know ("repo") is covered by a word it begins that the lexicon
// knows ("repositories"); a word the lexicon knows ("file") is no clipped
// one.
func TestAClippedWordIsCoveredByItsWord(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"list": 300, "remote": 60, "repo repositories report": 30})}
	target := "list the remotes of my repo"
	remote := plugintest.Text("r::3", "git remote", "common/git-remote.md", 3, "List the remotes of tracked repositories. List the remotes.")
	expectAnswers(t, c, plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: intent(target)}, "", "", []answerCase{
		{"the whole word", "List the remotes of tracked repositories. [1]\n\nSources:\n[1] git remote — common/git-remote.md:3\n", remote, plugin.StatusAccepted},
		{"neither", "List the remotes. [1]\n\nSources:\n[1] git remote — common/git-remote.md:3\n", remote, plugin.StatusRejected},
	})
	if clippedIn("repo", map[string]bool{"repositori": false}) {
		t.Error("an absent term covers nothing")
	}
	for k, h := range map[string]string{"repo": "repositori", "config": "configur"} {
		if !clippedIn(k, map[string]bool{h: true}) {
			t.Errorf("%q should be covered by %q", k, h)
		}
	}
	if clippedIn("file", map[string]bool{"filer": true}) {
		t.Error(`"file" is a word of its own, not a clipped one`)
	}
}

// TestModifierLeftOutCostsHalf: "split a tremendous log into bigger
// chunks" is answered by a page that splits a log into chunks; the
// adjectives that only say how big the user's things are (rare as they
// are) weigh half when the answer leaves them out, and the words they
// stand between are neighbours. A word the lexicon knows as an adjective
// that stands before a preposition ("next to") describes no word.
func TestModifierLeftOutCostsHalf(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"tremendous bigger": 2, "split chunk": 10, "log": 20, "line": 300})}
	split := tldrExample{"split", "common/split.md", "Split a log into chunks.", "Split a log into chunks of 10 lines each", "split -l 10 {{path/to/log}}"}
	expectHowTo(t, c, kus.LevelSummary, "cover", []howToCase{
		{"modifiers left out", "split a tremendous log into bigger chunks", split.answer(), split.unit("s::1"), plugin.StatusAccepted},
	})
	if got := modifiers("show line numbers next to each line"); got["next"] {
		t.Errorf("modifiers takes \"next\" of \"next to each line\" for a modifier: %v", got)
	}
	other := plugintest.Claim("u::1", "Utility", "common/util.md", 3, "Split a log into chunks.")
	if !together("split a tremendous log into bigger chunks", other, []string{"Split a log into chunks."}, plugin.RunContext{}, true) {
		t.Error("the words a modifier stands between are not neighbours")
	}
}

// TestCompoundHeadLeftOutCostsHalf: "example scripts" is named by its
// modifier on a page of "toolx examples"; the head ("scripts"), which only
// names their kind, costs half when the answer covers the modifier and
// leaves it out, but all of its weight when the answer covers neither.
func TestCompoundHeadLeftOutCostsHalf(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"exampl": 60, "script": 5, "toolx": 30, "serv static file show log": 300})}
	examples := plugintest.Text("t::1", "toolx examples", "toolx/examples/README.md", 1, "- fileserver - Serve static files\n- logging - Show logs\n")
	other := plugintest.Text("t::2", "toolx", "toolx/README.md", 1, "- fileserver - Serve static files\n- logging - Show logs\n")
	list := "- fileserver - Serve static files [1]\n- logging - Show logs [1]\n\nSources:\n"
	expectAnswers(t, c, plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "identify", Target: "example scripts come with toolx"}}}, kus.LevelSection, "", []answerCase{
		{"the modifier covered", list + "[1] toolx examples — toolx/examples/README.md:1\n", examples, plugin.StatusAccepted},
		{"neither covered", list + "[1] toolx — toolx/README.md:1\n", other, plugin.StatusRejected},
	})
	// The modifier may be a word the lexicon knows as much as a verb as a
	// noun ("retrieval"), not the task's verb ("connect gin"); the head
	// must be mainly a noun ("gin offer" is a subject and its verb).
	for target, want := range map[string]int{"measure retrieval speed": 1, "what does gin offer": 0, "connect gin to a database": 0} {
		if heads := compoundHeads(target); len(heads) != want {
			t.Errorf("compoundHeads(%q) = %v, want %d head(s)", target, heads, want)
		}
	}
}

// TestAnAvoidedActionIsNotAsked: the words of a how-to's clause naming an
// action the user avoids ("without rebooting") are a constraint, not
// something the answer must mention: a page that answers the rest covers
// the question. The same words in a clause that asks for them stay asked.
func TestAnAvoidedActionIsNotAsked(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"show read": 300, "firmware": 5, "version": 60, "reboot": 4})}
	fw := plugin.ScoredKU{KU: plugintest.Claim("f::1", "fwinfo", "common/fwinfo.md", 3, "Show the firmware version read from the system tables.")}
	answer := "Show the firmware version read from the system tables. [1]\n\nSources:\n[1] fwinfo — common/fwinfo.md:3\n"
	for _, tc := range []struct {
		target string
		want   plugin.Status
	}{
		{"show the firmware version without rebooting", plugin.StatusAccepted},
		{"show the firmware version after rebooting", plugin.StatusRejected},
	} {
		res := validate(t, c, &plugin.ValidateInput{Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: tc.target}},
			Answer: answer, Evidence: []plugin.ScoredKU{fw}})
		expect(t, res, tc.want, `"reboot" is not covered`)
	}
}

// TestAvoidFreeKeepsWhatTheAnswerSays: an avoided action the answer
// speaks of stays asked; one it does not is left out.
func TestAvoidFreeKeepsWhatTheAnswerSays(t *testing.T) {
	said := symbolic.TermSet("List the files of an archive without extracting them.")
	assert.Equal(t, "list an archive's files extracting", avoidFree("list an archive's files without extracting", said))
	assert.Equal(t, "list an archive's files", avoidFree("list an archive's files without unpacking", said))
	assert.Equal(t, "list an archive's files", avoidFree("list an archive's files", said))
}

// TestCalledNamesSayTheirWords: a function the answer's code calls, named
// in camel or Pascal case ("q.OldestItem()"), covers the words of its name,
// as does a name it takes from an API, a field in Pascal case
// ("OldestItem: true") or a name selected from a value ("q.oldestItem");
// a variable so named ("oldestItem := ...") does not.
func TestCalledNamesSayTheirWords(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"oldest": 2, "item queue take": 300})}
	call := "Take items off the queue [1]:\n\n```go\nv := q.OldestItem()\n```\n\nSources:\n[1] Queue — queue/README.md:3\n"
	variable := "Take items off the queue [1]:\n\n```go\noldestItem := q.Pop()\n```\n\nSources:\n[1] Queue — queue/README.md:3\n"
	field := "Take items off the queue [1]:\n\n```go\nv := q.Pop(queue.Options{OldestItem: true})\n```\n\nSources:\n[1] Queue — queue/README.md:3\n"
	selected := "Take items off the queue [1]:\n\n```go\nv := q.oldestItem\n```\n\nSources:\n[1] Queue — queue/README.md:3\n"
	target := "the oldest"
	for _, tc := range []struct {
		name, answer string
		want         plugin.Status
	}{
		{"called", call, plugin.StatusAccepted},
		{"field", field, plugin.StatusAccepted},
		{"selected", selected, plugin.StatusAccepted},
		{"variable", variable, plugin.StatusRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := plugin.ScoredKU{KU: plugintest.Text("q::3", "Queue", "queue/README.md", 3, strings.TrimSuffix(tc.answer[:strings.Index(tc.answer, "\n\nSources")], " [1]:"))}
			res := validate(t, c, &plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: intent(target), Answer: tc.answer, Evidence: []plugin.ScoredKU{ev}})
			expect(t, res, tc.want, "oldest")
		})
	}
}

// TestAWordOfManySensesLeftOutCostsHalf: "turn the tabs in a file into
// spaces" is answered by a page that converts tabs to spaces; "turn", a
// word of very many senses, is named there by the word of its sense
// ("convert") and, rare as it may be in the knowledge base, weighs half
// when the answer leaves it out. A word of few senses ("indent") the
// answer leaves out weighs in full.
func TestAWordOfManySensesLeftOutCostsHalf(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"turn indent": 5, "tab": 40, "space": 100, "file": 600, "convert": 30})}
	expand := plugintest.Claim("e::1", "expand", "common/expand.md", 3, "Convert tabs in a file to spaces.")
	answer := "expand [1]: Convert tabs in a file to spaces.\n\nSources:\n[1] expand — common/expand.md:3\n"
	ask := func(target string) plugin.ValidateInput {
		return plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: []plugin.Intent{{ID: "i1", Act: "describe", Target: target}},
			Evidence: []plugin.ScoredKU{{KU: expand, Score: 1, Level: kus.LevelSummary}}}
	}
	expectAnswers(t, c, ask("turn the tabs in a file into spaces"), kus.LevelSummary, "", []answerCase{
		{"a word of many senses left out", answer, nil, plugin.StatusAccepted},
	})
	expectAnswers(t, c, ask("indent the tabs in a file into spaces"), kus.LevelSummary, `"indent" is not covered`, []answerCase{
		{"a word of few senses left out", answer, nil, plugin.StatusRejected},
	})
	expectEach(t, "polysemous", polysemous, map[string]bool{"turn": true, "cut": true, "tab": false, "convert": false, "nosuchword": false})
}

// TestANameModifiesTheNounAfterIt: a library's or tool's name before a
// noun ("my urfave/cli program", "a gorilla/mux handler", "a toolx
// server") says whose thing the noun is, as a noun modifier does: the
// noun is the head of a compound, named by the name (compoundHeads).
func TestANameModifiesTheNounAfterIt(t *testing.T) {
	for target, want := range map[string]map[string]string{
		"get the arguments passed to my urfave/cli program": {"program": "cli"},
		"write a test for a gorilla/mux handler":            {"handler": "mux"},
		"restart a toolx server":                            {"server": "toolx"},
	} {
		got := compoundHeads(target)
		for h, m := range want {
			if got[text.Terms(h)[0]] != text.Terms(m)[0] {
				t.Errorf("compoundHeads(%q) = %v, want %s headed by %s", target, got, h, m)
			}
		}
	}
}

const benchmarkPage = "# Benchmarks\n\n| benchmark | bytes per request |\n| --- | --- |\n| Route_Param | 400 |\n\n" +
	"## Allocations\n\nEach request allocates its route context, which the router pools.\n"

// TestAPageCoversAFigureItHolds: a figure the question quotes ("400
// bytes") is covered by the page the answer cites when the page holds it,
// though the passage quoted gives the reason for it; a figure the page
// does not hold is not covered.
func TestAPageCoversAFigureItHolds(t *testing.T) {
	df := freqs(map[string]int{"request": 100, "rout context pool": 40, "alloc byte": 10, "400": 1, "500": 1})
	section := plugintest.Text("b::7", "Allocations", "docs/bench.md", 7, "Each request allocates its route context, which the router pools.")
	c := sourced{corpus: corpus{n: 1000, df: df}, src: map[string]string{"docs/bench.md": benchmarkPage}}
	answer := "Each request allocates its route context, which the router pools. [1]\n\nSources:\n[1] Allocations — docs/bench.md:7\n"
	for figure, want := range map[string]plugin.Status{"400": plugin.StatusAccepted, "500": plugin.StatusRejected} {
		target := "each request allocate " + figure + " bytes"
		expectAnswers(t, c, plugin.ValidateInput{Payload: plugin.Payload{Prompt: "Why does " + target + "?"}, Intents: intent(target),
			Evidence: []plugin.ScoredKU{{KU: section, Score: 1, Level: kus.LevelSection}}}, "", "", []answerCase{
			{figure, answer, nil, want},
		})
	}
}

// TestACompletedPartThatNamesItsTopic: a part completed with the whole
// earlier part as its topic ("(pandoc choose which PDF engine it uses)")
// needs no more of that topic when its own words name it ("with pandoc");
// one that does not name it must cover some share of the topic.
func TestACompletedPartThatNamesItsTopic(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"list output format support": 40, "choos engin": 30, "pdf": 20, "pandoc": 3})}
	pandoc := plugintest.Text("p::3", "pandoc", "common/pandoc.md", 3, "List the supported output formats: pandoc --list-output-formats")
	answer := "List the supported output formats: pandoc --list-output-formats [1]\n\nSources:\n[1] pandoc — common/pandoc.md:3\n"
	for target, want := range map[string]plugin.Status{
		"with pandoc, list the output formats (pandoc choose which PDF engine it uses)": plugin.StatusAccepted,
		"list the output formats (pandoc choose which PDF engine it uses)":              plugin.StatusRejected,
	} {
		expectAnswers(t, c, plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: intent(target),
			Evidence: []plugin.ScoredKU{{KU: pandoc, Score: 1, Level: kus.LevelLeaf}}}, "", "", []answerCase{
			{target, answer, nil, want},
		})
	}
}

// TestAFollowUpsAdverbTiesItToTheTurnBefore: a follow-up completed with
// the topic of the turn before ("How do I unmount it afterwards (CD-ROM
// read-only)?") is judged on its own words without those the lexicon
// knows only as adverbs: "afterwards" says when the user does it, after
// the earlier turn, which the page that unmounts never says. The verb it
// asks stays: an answer that does not unmount is no answer.
func TestAFollowUpsAdverbTiesItToTheTurnBefore(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"path mount filesystem": 300, "read-only": 60, "unmount": 20, "afterward": 4, "cd-rom": 10, "umount": 3})}
	umount := plugintest.Text("u::3", "umount", "linux/umount.md", 3, "Unlink a filesystem from its mount point. When an unmount fails, try to remount the filesystem read-only: `umount -r {{path}}`")
	target := "How do I unmount it afterwards (CD-ROM read-only)?"
	expectAnswers(t, c, plugin.ValidateInput{Payload: plugin.Payload{Prompt: target}, Intents: intent(target),
		Evidence: []plugin.ScoredKU{{KU: umount, Score: 1, Level: kus.LevelLeaf}}}, "", "", []answerCase{
		{"unmounts", "When an unmount fails, try to remount the filesystem read-only: `umount -r {{path}}` [1]\n\nSources:\n[1] umount — linux/umount.md:3\n", nil, plugin.StatusAccepted},
		{"remounts only", "Remount the filesystem read-only: `mount -o remount,ro {{path}}` [1]\n\nSources:\n[1] umount — linux/umount.md:3\n", nil, plugin.StatusRejected},
	})
	if got := adverbFree("How do I unmount it afterwards"); strings.Contains(got, "afterwards") || !strings.Contains(got, "unmount") {
		t.Errorf("adverbFree = %q", got)
	}
}

// TestAParticipleBeforeItsNounIsAModifier: a past participle between a
// determiner and its noun ("my downloaded files") describes which of the
// things the user means, as an adjective does: left out by the answer it
// weighs half. Without the determiner ("files downloaded") or as the
// verb of a clause ("I downloaded") it counts in full.
func TestAParticipleBeforeItsNounIsAModifier(t *testing.T) {
	c := corpus{n: 1000, df: freqs(map[string]int{"file": 400, "check": 100, "download": 5, "match checksum": 200, "md5": 50})}
	md5 := tldrExample{"md5sum", "common/md5sum.md", "Calculate MD5 checksums.", "Read a file of MD5 checksums and verify all files have matching checksums", "md5sum --check {{path/to/file.md5}}"}
	expectHowTo(t, c, kus.LevelSummary, "cover", []howToCase{
		{"participle left out", "check that all my downloaded files match", md5.answer(), md5.unit("m::1"), plugin.StatusAccepted},
	})
	if got := participles("check that all my downloaded files match"); !got["download"] {
		t.Errorf("participles does not take \"downloaded\" of \"my downloaded files\": %v", got)
	}
	if got := participles("check the files I downloaded yesterday"); got["download"] {
		t.Errorf("participles takes the verb \"downloaded\" of a clause: %v", got)
	}
}
