package valsymbolic

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/kus"
	"github.com/mrpvm/mrpvm/plugin"
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
