package valsymbolic

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
)

// choiceNamesRE finds two names a question weighs against each other: "zip
// or gzip", "top and htop" (of "the difference between top and htop"),
// "kb_locked vs kb_read_only", "sd-symbolic compare with sd-llm-fast".
var choiceNamesRE = regexp.MustCompile(`(?i)([\p{L}\p{N}][\p{L}\p{N}._/+-]*)\s+(?:or|and|vs\.?|versus|compared?\s+(?:to|with)|differs?\s+from|different\s+(?:from|than))\s+([\p{L}\p{N}][\p{L}\p{N}._/+-]*)`)

// weighs reports whether the task compares things or asks which of them
// to pick ("gs-llm-fast or gs-llm-deep: which one should I use?").
func weighs(in *plugin.ValidateInput) bool {
	if len(in.Intents) == 0 {
		act := symbolic.ActOf(in.Payload.Prompt)
		return act == "compare" || act == "recommend"
	}
	for _, it := range in.Intents {
		if it.Act == "compare" || it.Act == "recommend" {
			return true
		}
	}
	return false
}

// choiceNames are the names target weighs against each other (nil when it
// names no two): each must be a name, a word that is no question word.
func choiceNames(target string) []string {
	m := choiceNamesRE.FindStringSubmatch(target)
	if m == nil {
		return nil
	}
	a, b := strings.Trim(m[1], "._/+-"), strings.Trim(m[2], "._/+-")
	if len(symbolic.ContentTerms(a)) == 0 || len(symbolic.ContentTerms(b)) == 0 || strings.EqualFold(a, b) {
		return nil
	}
	return []string{a, b}
}

// namesWord reports whether text names w as a word of its own, in any
// case: letters, digits, hyphens and underscores on neither side
// ("gs-llm-deep" is not named by "gs-llm-deeper", "Bind" not by
// "ShouldBind").
func namesWord(text, w string) bool {
	re, err := regexp.Compile(`(?i)(?:^|[^\p{L}\p{N}_-])` + regexp.QuoteMeta(w) + `(?:$|[^\p{L}\p{N}_-])`)
	return err == nil && re.MatchString(text)
}

// tableRow is one body row of a Markdown table in an answer: its first
// cell (the item) and the rest (what is said of it), citations left out.
type tableRow struct {
	item, said string
}

// tableRows are the body rows of the tables in an answer, header rows and
// separators left out.
func tableRows(body string) []tableRow {
	var out []tableRow
	lines := strings.Split(body, "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if !strings.HasPrefix(line, "|") || isSeparatorRow(line) || (i+1 < len(lines) && isSeparatorRow(lines[i+1])) {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			continue
		}
		out = append(out, tableRow{
			item: strings.TrimSpace(cells[0]),
			said: strings.TrimSpace(stripCites(strings.Join(cells[1:], "|"))),
		})
	}
	return out
}

// sameSaying normalises what a row says for comparing rows: lower case,
// white space collapsed, closing punctuation dropped.
func sameSaying(s string) string {
	return strings.TrimRight(strings.Join(strings.Fields(strings.ToLower(s)), " "), ".;:, ")
}

// nothingOnRE opens a row whose item the answer found nothing on.
var nothingOnRE = regexp.MustCompile(`(?i)^(?:the\s+)?(?:evidence|sources?)\s+(?:says?|said|has|have|holds?)\s+nothing\b`)

// weighsApart is the reason an answer to a comparison or a choice fails to
// weigh its items, or "" when it does: every item must be named by the
// answer or by the title of a source it cites (an answer on gs-llm-fast
// alone does not say whether to pick it or gs-llm-deep), no row of its
// table may say the answer has nothing on its item, and no two rows may
// say the same (a difference is not shown by giving both items one
// description).
func weighsApart(body string, targets []string, cited map[int]*kus.KU) string {
	rows := tableRows(body)
	for _, r := range rows {
		if nothingOnRE.MatchString(r.said) {
			return fmt.Sprintf("the answer has nothing on %q, one of the things the question weighs", clip(r.item))
		}
	}
	seen := map[string]string{}
	for _, r := range rows {
		s := sameSaying(r.said)
		if s == "" {
			continue
		}
		if other, ok := seen[s]; ok && !strings.EqualFold(other, r.item) {
			return fmt.Sprintf("the answer says the same of %q and %q, so it does not tell them apart", clip(other), clip(r.item))
		}
		seen[s] = r.item
	}
	var titles strings.Builder
	for _, k := range cited {
		titles.WriteString(k.Title)
		titles.WriteString("\n")
	}
	for _, t := range targets {
		for _, name := range choiceNames(t) {
			if !namesWord(body, name) && !namesWord(titles.String(), name) {
				return fmt.Sprintf("the answer does not name %q, one of the things %q weighs", name, clip(t))
			}
		}
	}
	return ""
}

// folderOf is the first folder of a source path ("gin" of
// "gin/docs/doc.md"), "" for a source at the top or outside the
// workspace's files ("plugin::gs-llm-fast").
func folderOf(sourceID string) string {
	if strings.Contains(sourceID, "::") {
		return ""
	}
	if i := strings.IndexByte(sourceID, '/'); i > 0 {
		return sourceID[:i]
	}
	return ""
}

// namedScope is the word of target that names a folder of the workspace
// the question is confined to ("gin" of "serve static files with gin",
// the documentation of gin living under gin/), with that folder: a key
// word that is a word of the folder's name, when an evidence unit from
// that folder says the word in its text too (the folder's pages call
// their subject by it, as library documentation does; a folder of
// unrelated pages, "linux/", does not make "linux" the question's scope
// unless its pages say so). "" when target names no such folder.
func namedScope(target string, ev []plugin.ScoredKU) (word, folder string) {
	key := map[string]bool{}
	for _, t := range symbolic.ContentTerms(target) {
		if !filler[t] {
			key[t] = true
		}
	}
	for _, e := range ev {
		if e.KU == nil {
			continue
		}
		f := folderOf(e.KU.SourceID)
		if f == "" {
			continue
		}
		for _, t := range text.Terms(strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(f)) {
			if key[t] && symbolic.TermSet(e.KU.Title + "\n" + e.KU.Text())[t] {
				return t, f
			}
		}
	}
	return "", ""
}

// outOfScope is the reason a source an answer cites (lead) fails the
// folder target names (namedScope), or "" when it lies in that folder,
// says the word itself, or target names no folder: a page of mux's
// documentation does not say how gin serves static files.
func outOfScope(target string, ev []plugin.ScoredKU, lead *kus.KU, rc plugin.RunContext) string {
	word, folder := namedScope(target, ev)
	if word == "" || lead == nil || folderOf(lead.SourceID) == folder {
		return ""
	}
	if symbolic.TermSet(citedText([]*kus.KU{lead}, rc))[word] {
		return ""
	}
	return fmt.Sprintf("the question asks about %q (the pages under %s/), and a source the answer cites, %s, is not about it", word, folder, lead.SourceID)
}

// displayActions are the light actions (symbolic.LightAction) that ask to
// show something ("see my cron jobs", "print a file's permissions"), not
// to make it.
var displayActions = map[string]bool{}

func init() {
	for _, w := range text.Terms("see view look show display print list") {
		displayActions[w] = true
	}
}

// quantityRE opens a question that asks for an amount ("How many CPU cores
// are available?", "how much memory is free").
var quantityRE = regexp.MustCompile(`(?i)^\s*how\s+(?:many|much)\b`)

// shownAction is the display action target asks for (displayActions:
// "print" of "Is there a way to print a file's permissions"), "count" for
// a question that asks for an amount, which is shown by counting or by
// displaying it, or "" when target asks to show nothing.
func shownAction(target string) string {
	if quantityRE.MatchString(target) {
		return "count"
	}
	if action, _ := symbolic.Action(target); displayActions[action] {
		return action
	}
	return ""
}

// shows reports whether one of an answer's examples (lines: each
// description and its command) does what a display action asks: its
// description opens with a light action (symbolic.LightAction), with the
// action itself or a relative of it, or with a close relative of any
// display action ("Scan", "Monitor", "Inspect"). An example that opens
// with another verb ("Clone a remote repository", "Set the mask") does
// something rather than showing it.
func shows(action string, lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "`") {
			continue
		}
		f := strings.Fields(strings.TrimLeft(l, "-* "))
		if len(f) == 0 {
			continue
		}
		verb := text.Terms(strings.NewReplacer("[", "", "]", "").Replace(f[0]))
		if len(verb) != 1 {
			continue
		}
		if symbolic.LightAction(verb[0]) || symbolic.ActionMatch(action, map[string]bool{verb[0]: true}, true) > 0 {
			return true
		}
		for d := range displayActions {
			if symbolic.ActionMatch(d, map[string]bool{verb[0]: true}, true) >= symbolic.RelativeMatch {
				return true // "Scan", "Monitor", "Inspect": ways of showing
			}
		}
	}
	return false
}
