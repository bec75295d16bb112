package valsymbolic

import (
	"testing"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugins/internal/plugintest"
)

const muxReadme = "# gorilla/mux\n\nPackage `gorilla/mux` implements a request router.\n\n" +
	"## Walking Routes\n\nThe `Walk` function on `mux.Router` can be used to visit all of the routes that are registered on a router. " +
	"It comes with github.com/gorilla/mux.\n"

const chiReadme = "# <img alt=\"chi\" src=\"chi.svg\" />\n\n## Router interface\n\n" +
	"chi's router is a tree of routes. Its Walk function works as the one of gorilla/mux does.\n"

// TestAWordThatNamesThePageScopesWhatIsAsked: "What does the Walk function
// of gorilla/mux do?" is answered by the section "Walking Routes" of the
// page titled "gorilla/mux": "gorilla", the question's rarest word, names
// the page the section stands in and confines the question to it, and the
// section must be about the question's next rarest word ("walk"). A
// section of another page that mentions gorilla/mux in passing is not
// about it, and "What is gorilla/mux?", whose words all name the page,
// is not answered by one of its sections about something else.
func TestAWordThatNamesThePageScopesWhatIsAsked(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"gorilla": 2, "walk": 10, "mux": 20, "function rout router": 300})},
		src: map[string]string{"mux/README.md": muxReadme, "chi/README.md": chiReadme}}
	walking := plugintest.Text("m::1", "Walking Routes", "mux/README.md", 5, "The `Walk` function on `mux.Router` can be used to visit all of the routes that are registered on a router. It comes with github.com/gorilla/mux.")
	chi := plugintest.Text("c::1", "Router interface", "chi/README.md", 3, "chi's router is a tree of routes. Its Walk function works as the one of gorilla/mux does.")
	define := func(target string) plugin.ValidateInput {
		return plugin.ValidateInput{Payload: plugin.Payload{Prompt: "What is " + target + "?"}, Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: target}}}
	}
	expectAnswers(t, c, define("the Walk function of gorilla/mux"), kus.LevelSection, "only in passing", []answerCase{
		{"a section of the page the word names", "The `Walk` function on `mux.Router` can be used to visit all of the routes that are registered on a router. " +
			"It comes with github.com/gorilla/mux. [1]\n\nSources:\n[1] Walking Routes — mux/README.md:5\n", walking, plugin.StatusAccepted},
		{"a page that mentions it in passing", "chi's router is a tree of routes. Its Walk function works as the one of gorilla/mux does. [1]\n\n" +
			"Sources:\n[1] Router interface — chi/README.md:3\n", chi, plugin.StatusRejected},
	})
	expectAnswers(t, c, define("gorilla/mux"), kus.LevelSection, `mentions "gorilla" only in passing`, []answerCase{
		{"a section about something else", "The `Walk` function on `mux.Router` can be used to visit all of the routes that are registered on a router. " +
			"It comes with github.com/gorilla/mux. [1]\n\nSources:\n[1] Walking Routes — mux/README.md:5\n", walking, plugin.StatusRejected},
	})
}

// TestPageTitle: a page's title is its front matter's title, else its
// first top-level heading without markup; a page with neither, or one the
// corpus does not hold, has none.
func TestPageTitle(t *testing.T) {
	c := sourced{src: map[string]string{
		"a.md": "---\ntags:\n  - v2\ntitle: Exit Codes\n---\n\n# Ignored\n",
		"b.md": "---\ntags:\n  - v2\n---\n\n## Section\n\n# The [chi](https://x) router <img src=\"x.svg\"/>\n",
		"c.md": "## Only sections\n",
		"d.md": "# gorilla/mux\n\n![testing](https://x/badge.svg)\n",
	}}
	for id, want := range map[string]string{"a.md": "Exit Codes", "b.md": "The chi router", "c.md": "", "d.md": "gorilla/mux", "none.md": ""} {
		if got := pageTitle(&kus.KU{SourceID: id}, plugin.RunContext{Corpus: c}); got != want {
			t.Errorf("pageTitle(%s) = %q, want %q", id, got, want)
		}
	}
	if got := pageTitle(&kus.KU{SourceID: "d.md"}, plugin.RunContext{}); got != "" {
		t.Errorf("pageTitle without a corpus = %q, want none", got)
	}
	// The page is named by its path's words and its title's.
	names := pageNames(&kus.KU{SourceID: "mux/README.md", Title: "Walking Routes"}, plugin.RunContext{Corpus: sourced{src: map[string]string{"mux/README.md": muxReadme}}})
	for _, w := range []string{"mux", "readm", "gorilla"} {
		if !names[w] {
			t.Errorf("pageNames lacks %q: %v", w, names)
		}
	}
	if names["walk"] {
		t.Errorf("the unit's own title is no name of its page: %v", names)
	}
}

// TestThePageTitleNamesItsSections: "How do I test a gorilla/mux
// handler?" is answered by the section "Testing Handlers" of the page
// titled "gorilla/mux", though the section never says "gorilla": the
// page's title names what all of its sections are about. It does not
// answer a question about something the knowledge base holds nowhere
// ("on Heroku"), which the section's own words must then nearly cover.
func TestThePageTitleNamesItsSections(t *testing.T) {
	page := "# gorilla/mux\n\nPackage `gorilla/mux` implements a request router.\n\n## Testing Handlers\n\nCreate a request and pass it to the handler with httptest.\n"
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"gorilla": 2, "mux": 20, "test handler request pass creat httptest": 300})},
		src: map[string]string{"mux/README.md": page}}
	section := plugintest.Text("m::1", "Testing Handlers", "mux/README.md", 5, "Create a request and pass it to the handler with httptest.")
	answer := "Create a request and pass it to the handler with httptest. [1]\n\nSources:\n[1] Testing Handlers — mux/README.md:5\n"
	expectHowTo(t, c, kus.LevelSection, "which no source of the knowledge base holds", []howToCase{
		{"a section of the page", "test a gorilla/mux handler", answer, section, plugin.StatusAccepted},
	})
	expectInputs(t, c, "which no source of the knowledge base holds", []inputCase{
		{"a name the knowledge base lacks", plugin.ValidateInput{Payload: plugin.Payload{Prompt: "How do I test a gorilla/mux handler on Heroku?"},
			Intents: []plugin.Intent{{ID: "i1", Act: "implement", Target: "test a gorilla/mux handler on heroku"}},
			Answer:  answer, Evidence: []plugin.ScoredKU{{KU: section, Score: 1, Level: kus.LevelSection}}}, plugin.StatusRejected},
	})
}

const extrasReadme = "# chi\n\n## Extra packages\n\nPlease see the project for additional packages.\n\n" +
	"| package | description |\n| --- | --- |\n| docgen | Print chi.Router routes at runtime |\n| hostrouter | Domain/host based request routing |\n"

// TestATableRowIsAboutTheWordItOpensWith: a table row whose first cell is
// the word asked ("| hostrouter | Domain/host based request routing |")
// is that word's entry, wherever it stands in the table; a row that names
// the word in another cell only mentions it.
func TestATableRowIsAboutTheWordItOpensWith(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"hostrouter": 2, "docgen": 2, "chi": 30, "packag rout request domain host print router runtim": 300})},
		src: map[string]string{"chi/README.md": extrasReadme}}
	extras := plugintest.Text("c::3", "Extra packages", "chi/README.md", 3, "Please see the project for additional packages.\n\n| package | description |\n| --- | --- |\n| docgen | Print chi.Router routes at runtime |\n| hostrouter | Domain/host based request routing |\n")
	define := plugin.ValidateInput{Payload: plugin.Payload{Prompt: "What is chi's hostrouter package for?"}, Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: "chi's hostrouter package for"}}}
	expectAnswers(t, c, define, kus.LevelSection, "only in passing", []answerCase{
		{"its row", "Please see the project for additional packages. [1]\n\n| package | description |\n| --- | --- |\n" +
			"| docgen | Print chi.Router routes at runtime [1] |\n| hostrouter | Domain/host based request routing [1] |\n\nSources:\n[1] Extra packages — chi/README.md:3\n", extras, plugin.StatusAccepted},
		{"another cell", "Please see the project for additional packages. [1]\n\n| package | description |\n| --- | --- |\n" +
			"| docgen | Print chi.Router routes at runtime [1] |\n| router | Like hostrouter, routes by domain [1] |\n\nSources:\n[1] Extra packages — chi/README.md:3\n", extras, plugin.StatusRejected},
	})
}

const exitCodesReadme = "# tool\n\n## Exit codes\n\nBad input gets a status and a code.\n\n" +
	"| input | code | what the error says |\n| --- | --- | --- |\n| an empty question | `NO_WORDS` | nothing to search for |\n| a question too long | `CLIPPED_TEXT` | only the start is searched |\n"

// TestATableRowIsAboutTheCodeACellHoldsAlone: a cell that holds nothing
// but the identifier asked, as code ("| `CLIPPED_TEXT` |"), is the key of
// its row in whichever column it stands, so the row is that identifier's
// entry; the identifier in a cell of prose is only mentioned.
func TestATableRowIsAboutTheCodeACellHoldsAlone(t *testing.T) {
	c := sourced{corpus: corpus{n: 1000, df: freqs(map[string]int{"clipped_text no_words": 2, "question code error status search start long bad input": 300})},
		src: map[string]string{"tool/README.md": exitCodesReadme}}
	codes := plugintest.Text("t::2", "Exit codes", "tool/README.md", 3, "Bad input gets a status and a code.\n\n"+
		"| input | code | what the error says |\n| --- | --- | --- |\n| an empty question | `NO_WORDS` | nothing to search for |\n| a question too long | `CLIPPED_TEXT` | only the start is searched |\n")
	define := plugin.ValidateInput{Payload: plugin.Payload{Prompt: "What does CLIPPED_TEXT mean?"}, Intents: []plugin.Intent{{ID: "i1", Act: "define", Target: "CLIPPED_TEXT"}}}
	expectAnswers(t, c, define, kus.LevelSection, "only in passing", []answerCase{
		{"its code cell", "Bad input gets a status and a code. [1]\n\n| input | code | what the error says |\n| --- | --- | --- |\n" +
			"| an empty question | `NO_WORDS` | nothing to search for [1] |\n| a question too long | `CLIPPED_TEXT` | only the start is searched [1] |\n\nSources:\n[1] Exit codes — tool/README.md:3\n", codes, plugin.StatusAccepted},
		{"a cell of prose", "Bad input gets a status and a code. [1]\n\n| input | code | what the error says |\n| --- | --- | --- |\n" +
			"| an empty question | `NO_WORDS` | nothing to search for [1] |\n| a question too long | see `CLIPPED_TEXT` | only the start is searched [1] |\n\nSources:\n[1] Exit codes — tool/README.md:3\n", codes, plugin.StatusRejected},
	})
}
