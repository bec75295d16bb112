package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

const inotifywaitPage = `# inotifywait

> Waits for changes to files.

- Watch a directory recursively for events:

` + "`inotifywait --monitor --recursive {{path/to/directory}}`" + `
`

const nmcliPage = `# nmcli

> Manage the network configuration using NetworkManager.

- View documentation for managing network connections:

` + "`tldr nmcli connection`" + `

- View documentation for managing radio switches:

` + "`tldr nmcli radio`" + `
`

const envsubstPage = `# envsubst

> Substitutes environment variables with their value in shell format strings.

- Replace environment variables in an input file and output to a file:

` + "`envsubst < {{path/to/input_file}} > {{path/to/output_file}}`" + `
`

const delimsPage = "# Custom Delimiters\n\n- Use custom template delimiters:\n\n  `router.Delims(\"{[{\", \"}]}\")`\n"

const watchPage = "# watch\n\n> Execute a program periodically and monitor the output.\n\n- Exit `watch` if the visible output changes:\n\n`watch --chgexit {{lsblk}}`\n"

const argosPage = "# argos-translate\n\n> An offline translation tool.\n\n- Translate text from Spanish to English (only two letter language codes are supported):\n\n`argos-translate --from-lang es --to-lang en {{text}}`\n"

const lockPage = "# Thread safety\n\nBy default the logger is protected by a mutex for concurrent writes. In situations where you do not need the lock, you can disable locking:\n\n```go\nlogger.SetNoLock()\n```\n"

const contactPage = "# Validation\n\nWhen a validator rejects an answer, this happens to its reason: the reason reaches the next solver.\n"

// askedTarget is one target asked of a notAskedCase's page and the
// status its answer should get.
type askedTarget struct {
	target string
	want   plugin.Status
}

// notAskedCase is a page, the corpus statistics it is read with, a
// question "<ask><target>?" of act and the one answer given to each
// target, and the word a rejection's reason must say.
type notAskedCase struct {
	name, id, page string
	df             map[string]int
	ask, act       string
	answer, says   string
	targets        []askedTarget
}

// TestWordsNotAsked: words of a target that frame the question rather
// than ask something are no part of what the answer must cover; the same
// words asked as the task are.
func TestWordsNotAsked(t *testing.T) {
	for _, tc := range []notAskedCase{
		// A how-to's clause that says when the user does it ("as it
		// happens", "before I post them") is no part of what the answer
		// must cover; the same words asked as the task are.
		{name: "how-to occasion", id: "linux/inotifywait.md", page: inotifywaitPage,
			df:  map[string]int{"watch directory recursive event change file print": 100, "happen": 2},
			ask: "How do I ", act: "implement", says: "happen",
			answer: "- Watch a directory recursively for events [1]:\n\n  `inotifywait --monitor --recursive {{path/to/directory}}`\n\nSources:\n[1] inotifywait — linux/inotifywait.md:3\n",
			targets: []askedTarget{
				{"watch a directory recursively, printing each change as it happens", plugin.StatusAccepted},
				{"watch a directory recursively and print what happens", plugin.StatusRejected},
			}},
		// "What kinds of things can I manage with nmcli?" is answered by a
		// list of what nmcli manages, which says no "kind".
		{name: "kinds of things", id: "linux/nmcli.md", page: nmcliPage,
			df:  map[string]int{"manag network connect radio switch configur document view": 300, "kind": 2, "nmcli": 5},
			ask: "What ", act: "list", says: "",
			answer: "- View documentation for managing network connections [1]:\n\n  `tldr nmcli connection`\n\n" +
				"- View documentation for managing radio switches [1]:\n\n  `tldr nmcli radio`\n\nSources:\n[1] nmcli — linux/nmcli.md:3\n",
			targets: []askedTarget{
				{"kinds of things can I manage with nmcli", plugin.StatusAccepted},
			}},
		// "$HOME-style variables" asks about variables like $HOME; the
		// "style" of the combining form is no word the answer must say,
		// while "style" asked as a word is.
		{name: "combining form", id: "common/envsubst.md", page: envsubstPage,
			df:  map[string]int{"environ variabl valu file input output replac substitut shell format string": 100, "home": 3, "style": 2},
			ask: "How do I ", act: "implement", says: "style",
			answer: "envsubst [1]: Substitutes environment variables with their value in shell format strings.\n\n" +
				"- Replace environment variables in an input file and output to a file:\n\n  `envsubst < {{path/to/input_file}} > {{path/to/output_file}}`\n\n" +
				"Sources:\n[1] envsubst — common/envsubst.md:3\n",
			targets: []askedTarget{
				{"replace $HOME-style environment variables in a file", plugin.StatusAccepted},
				{"replace environment variables in a file in the style of $HOME", plugin.StatusRejected},
			}},
		// "what happens to the reason it gave" asks about the reason; the
		// verb of the contact clause ("gave") says only that the reason
		// has a giver, and the answer need not repeat it.
		{name: "contact clause", id: "docs/contracts.md", page: contactPage,
			df:  map[string]int{"reach next solver reject valid answer": 50, "reason": 5, "happen": 400, "gave": 1},
			ask: "What ", act: "explain", says: "gave",
			answer: "When a validator rejects an answer, this happens to its reason: the reason reaches the next solver. [1]\n\nSources:\n[1] Validation — docs/contracts.md:3\n",
			targets: []askedTarget{
				{"happens to the reason it gave", plugin.StatusAccepted},
				{"happens to the reason the validator gave", plugin.StatusRejected},
			}},
		// The reason the user gives for asking ("because it clashes with
		// vue") is no part of what the answer must cover; the same words
		// asked as the task are.
		{name: "reason for asking", id: "gin/docs/doc.md", page: delimsPage,
			df:  map[string]int{"custom delim templat html render engin set": 40, "gin": 30, "clash": 3, "vue": 1},
			ask: "How do I ", act: "implement", says: "vue",
			answer: "- Use custom template delimiters [1]:\n\n  `router.Delims(\"{[{\", \"}]}\")`\n\nSources:\n[1] Custom Delimiters — gin/docs/doc.md:3\n",
			targets: []askedTarget{
				{"use custom template delimiters in gin because they clash with vue", plugin.StatusAccepted},
				{"use custom template delimiters in gin that do not clash with vue", plugin.StatusRejected},
			}},
		// An equative construction ("as soon as", "as well") says when or
		// "too": its adverb is no word the answer must cover; the same
		// adverb asked as a word is.
		{name: "equative", id: "common/watch.md", page: watchPage,
			df:  map[string]int{"watch exit output chang visibl execut program period monitor command": 300, "soon": 2},
			ask: "How do I ", act: "implement", says: "soon",
			answer: "- Exit `watch` if the visible output changes [1]:\n\n  `watch --chgexit {{lsblk}}`\n\nSources:\n[1] watch — common/watch.md:3\n",
			targets: []askedTarget{
				{"exit watch as soon as the output changes", plugin.StatusAccepted},
				{"exit watch soon after the output changes", plugin.StatusRejected},
			}},
		// Examples the user gives with "like" after a plural noun ("codes
		// like deu and eng") are instances of what is asked, as with
		// "such as"; the same words asked as the task are.
		{name: "examples with like", id: "common/argos-translate.md", page: argosPage,
			df:  map[string]int{"translat text spanish english languag code support letter offlin tool": 100, "argo": 3, "deu": 1, "eng": 1},
			ask: "How do I ", act: "implement", says: "deu",
			answer: "- Translate text from Spanish to English (only two letter language codes are supported) [1]:\n\n  `argos-translate --from-lang es --to-lang en {{text}}`\n\nSources:\n[1] argos-translate — common/argos-translate.md:3\n",
			targets: []askedTarget{
				{"translate text with argos-translate using language codes like deu and eng", plugin.StatusAccepted},
				{"translate text with argos-translate using the deu and eng language codes", plugin.StatusRejected},
			}},
		// The adjective of an extraposed clause ("is it fine to") judges
		// the action, which is what is asked; the same adjective asked
		// as a word is.
		{name: "extraposed adjective", id: "logrus/README.md", page: lockPage,
			df:  map[string]int{"default logger protect mutex concurr write situat need lock disabl": 300, "logrus": 30, "fine": 2},
			ask: "In which ", act: "list", says: "fine",
			answer: "In situations where you do not need the lock, you can disable locking [1]:\n\n```go\nlogger.SetNoLock()\n```\n\nSources:\n[1] Thread safety — logrus/README.md:3\n",
			targets: []askedTarget{
				{"situations is it fine to disable the logrus lock", plugin.StatusAccepted},
				{"situations does logrus need a fine lock", plugin.StatusRejected},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sourced{corpus: corpus{n: 1000, df: freqs(tc.df)}, src: map[string]string{tc.id: tc.page}}
			for _, at := range tc.targets {
				t.Run(at.target, func(t *testing.T) {
					res := validate(t, c, &plugin.ValidateInput{
						Payload: plugin.Payload{Prompt: tc.ask + at.target + "?"},
						Intents: []plugin.Intent{{ID: "i1", Act: tc.act, Target: at.target}},
						Answer:  tc.answer, Evidence: units(t, tc.id, tc.page)})
					expect(t, res, at.want, tc.says)
				})
			}
		})
	}
}

// TestTargetTrims: what a target keeps once the words framing it go.
func TestTargetTrims(t *testing.T) {
	for _, tc := range []struct {
		name string
		trim func(string) string
		want map[string]string // the trimmed target of each target
	}{
		// The occasion clause goes up to a completed follow-up's topic,
		// which stays; a target that would keep nothing but filler stays
		// whole.
		{"occasionFree", occasionFree, map[string]string{
			"remove the GPS tags from photos before I post them online": "remove the GPS tags from photos",
			"stop it from wrapping lines when I encode (base64)":        "stop it from wrapping lines (base64)",
			"force a new password the next time they log in":            "force a new password",
			"remove the tags before posting":                            "remove the tags before posting",
			"do it when I log in":                                       "do it when I log in",
			"close it again when I'm done (encrypted partition)":        "close it again (encrypted partition)",
			"detach the job before we're logged out":                    "detach the job",
		}},
		// The user's reason, an example they give and a limit they set
		// go; the thing the limit is on stays, and a target that would
		// keep nothing but filler stays whole.
		{"sceneFree", sceneFree, map[string]string{
			"change the template delimiters because {{ }} clashes with vue":             "change the template delimiters",
			"take a flag's default from a file, for example a password kept under /etc": "take a flag's default from a file",
			"read a value from the request context, such as the user id":                "read a value from the request context",
			"stop one process from using more than a quarter of the CPU":                "stop one process from using of the CPU",
			"happens when a search query is longer then 4096 bytes":                     "happens when a search query is bytes",
			"put my public key on a server so I can log in without a password":          "put my public key on a server",
			"record my terminal so I'm able to play it back":                            "record my terminal",
			"delete a file so that nobody can recover it":                               "delete a file so that nobody can recover it",
			"wrap lines then print them":                                                "wrap lines then print them",
			"because I can":                                                             "because I can",
		}},
		// A semi-modal goes as a modal verb would; "to" after another
		// verb stays.
		{"semiModalFree", semiModalFree, map[string]string{
			"Who is supposed to close that writer": "Who is close that writer",
			"what ought to happen on a timeout":    "what happen on a timeout",
			"what is the flag supposed for":        "what is the flag supposed for",
			"how do I go to the next match":        "how do I go to the next match",
		}},
		// A place of the user's own closing the target, or its part
		// before a completed topic, goes unless the answer names it; one
		// inside the target stays.
		{"ownPlaceFree", func(s string) string { return ownPlaceFree(s, map[string]bool{"shell": true}) }, map[string]string{
			"measure that on my machine (logrus)":          "measure that (logrus)",
			"remove the GPS location from my photos":       "remove the GPS location",
			"get tab completion for mrpvm in my shell":     "get tab completion for mrpvm in my shell",
			"list the disks in my machine and their sizes": "list the disks in my machine and their sizes",
			"remove the GPS location from the photos":      "remove the GPS location from the photos",
			"do it on my machine":                          "do it on my machine",
		}},
		// A contact clause closing the target goes, with a place it
		// names; one that goes on to say more stays.
		{"contact clause", func(s string) string { return contactRE.ReplaceAllString(s, "$1$2") }, map[string]string{
			"happens to the reason it gave":                   "happens to the reason",
			"keep the page title it has on the server":        "keep the page title",
			"copy the page title it has to the clipboard":     "copy the page title it has to the clipboard",
			"keep the page title it has on the server (wget)": "keep the page title (wget)",
		}},
		// A classifier noun before a generic word ("kinds of things")
		// frames the question and goes; before a word that names
		// something ("kinds of files") it is asked and stays.
		// An equative construction of an adjective or adverb goes, as
		// does "as well"; one of a noun stays.
		{"degreeFree", degreeFree, map[string]string{
			"quit as soon as the output changes":        "quit the output changes",
			"attach to text buffers as well":            "attach to text buffers",
			"keep running as long as the shell is open": "keep running the shell is open",
			"run it as root as the last step":           "run it as root as the last step",
			"print it as well-formed JSON":              "print it as well-formed JSON",
			"list files as well as folders":             "list files folders",
		}},
		// Examples given with "like" after a comma or a plural noun go;
		// a verb's "like" and a likeness after "is" stay.
		{"likeExamplesFree", likeExamplesFree, map[string]string{
			"reject language codes like deu and eng":                  "reject language codes",
			"see its output refresh, like a live view":                "see its output refresh",
			"I'd like the client to attach":                           "I'd like the client to attach",
			"it is like a file":                                       "it is like a file",
			"why do tools like nginx restart when the config changes": "why do tools like nginx restart when the config changes",
			"read codes like deu and eng (argos)":                     "read codes (argos)",
			"combine short options like -som in urfave/cli":           "combine short options like -som in urfave/cli",
		}},
		// The adjective of an extraposed clause goes; a participle
		// stays.
		{"evaluationFree", evaluationFree, map[string]string{
			"is it fine to switch off locking": "is it  to switch off locking",
			"it's fine to delete the cache":    "it's  to delete the cache",
			"it is written to the log":         "it is written to the log",
		}},
		// The frame of a question about what follows from a condition
		// or an act goes; "what happens" asked of nothing stays.
		{"happensFree", happensFree, map[string]string{
			"what happens if my .gitignore itself is one": "if my .gitignore itself is one",
			"What happens to the units of a deleted note": "to the units of a deleted note",
			"what happens next":                           "what happens next",
		}},
		// A field named as a world is the field itself.
		{"domainFree", domainFree, map[string]string{
			"kind in the Kubernetes tooling world": "kind in the Kubernetes tooling ",
			"httpvcr in the go-chi ecosystem":      "httpvcr in the go-chi ",
			"the world of containers":              "the world of containers",
			"free memory in the user space":        "free memory in the user space",
		}},
		{"classifierFree", classifierFree, map[string]string{
			"kinds of things can I manage with nmcli":   "things can I manage with nmcli",
			"What sort of things does it do":            "What things does it do",
			"kinds of files get skipped when ingesting": "kinds of files get skipped when ingesting",
			"the type of a value":                       "the type of a value",
		}},
		// A completed follow-up asks its own words without the topic and
		// its light actions; a light action's word after a preposition or
		// a determiner is a noun the follow-up asks about, and stays.
		{"followUpAsk", func(s string) string { asked, _ := followUpAsk(s); return asked }, map[string]string{
			"Clear them between checks (logrus)?":          "Clear them between checks",
			"Can it reload when the file changes (viper)?": "Can it reload when the file changes",
			"How do I list them (docker container)?":       "",
			// Who does what is asked ("the person on the other end") is
			// named by no page's commands: it goes.
			"How does the person on the other end receive it (wormhole)?": "How does receive it",
			"How does it reload the file (viper)?":                        "How does it reload the file",
		}},
	} {
		expectEach(t, tc.name, tc.trim, tc.want)
	}
}

// TestTableRowIsOneStatement: a unit is about a word that a table row the
// answer quotes from it says, wherever the row's punctuation puts it; a
// line of prose is read up to its first sentence's end.
func TestTableRowIsOneStatement(t *testing.T) {
	const page = "# Plugin families\n\nAll behaviour lives in plugins.\n\n| family | job |\n| --- | --- |\n| validator | accepts or rejects an answer; a rejection makes the VM backtrack |\n"
	k := units(t, "docs/contracts.md", page)[0].KU
	row := "| validator | accepts or rejects an answer; a rejection makes the VM backtrack |"
	if !about("vm", k, []string{row}, symbolic.Rarity{}) {
		t.Errorf("a table row that says VM after a semicolon should make its unit about the VM")
	}
	if about("vm", k, []string{"A validator accepts or rejects an answer; a rejection makes the VM backtrack."}, symbolic.Rarity{}) {
		t.Errorf("prose that says VM after a semicolon should not make its unit about the VM")
	}
}

// TestTheWayToIsNoDefinition: "What's the way to X?" asks how to X, not
// what something is, whatever act the intents give it.
func TestTheWayToIsNoDefinition(t *testing.T) {
	definesPrompt := func(prompt string) bool {
		return defines(&plugin.ValidateInput{Payload: plugin.Payload{Prompt: prompt}, Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: prompt}}})
	}
	expectEach(t, "defines", definesPrompt, map[string]bool{
		"What's the way to download a page and keep its title?": false,
		"What is the best way to watch a log?":                  false,
		"What command do I use to split a file?":                false,
		"What's the Locator interface for?":                     true,
	})
}
