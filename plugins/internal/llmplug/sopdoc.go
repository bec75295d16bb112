package llmplug

import (
	"fmt"
	"strings"

	"github.com/mrpvm/mrpvm/kus/sop"
)

// Seed document names, as the prompts call them.
const (
	DocIntent  = "intentCNL"
	DocContext = "currentTurnContextCNL"
)

// SeedDocs are the two documents of a seed detector's reply.
type SeedDocs struct {
	IntentCNL  string
	ContextCNL string
}

// headingOf tells which document a heading line introduces: DocIntent,
// DocContext or "".
func headingOf(line string) string {
	t := strings.ToLower(strings.Trim(strings.TrimSpace(line), "#*:`_ "))
	t = strings.NewReplacer(" ", "", "-", "", "_", "").Replace(t)
	switch t {
	case "intentcnl", "intents", "intent", "intentdocument":
		return DocIntent
	case "currentturncontextcnl", "currentturncontext", "contextcnl", "context", "turncontext", "contextdocument":
		return DocContext
	}
	return ""
}

// ExtractSeedDocs reads intentCNL and currentTurnContextCNL from a reply.
// The prompts ask for a "### intentCNL" heading and a "###
// currentTurnContextCNL" heading, each followed by the document (fenced or
// not); a section holding only "(none)" or nothing is an empty document.
// A reply without headings is split by statement: intent, seed and
// subproblem constructors and every statement referring to them go to
// intentCNL, the rest to currentTurnContextCNL. Lines that are not SOP
// statements, comments or blank are dropped outside fences only when the
// reply has no headings.
func ExtractSeedDocs(reply string) (SeedDocs, error) {
	lines := strings.Split(strings.ReplaceAll(reply, "\r\n", "\n"), "\n")
	sections := map[string][]string{}
	cur := ""
	found := false
	for _, l := range lines {
		if h := headingOf(l); h != "" && !strings.HasPrefix(strings.TrimSpace(l), "@") {
			cur, found = h, true
			continue
		}
		if cur != "" {
			sections[cur] = append(sections[cur], l)
		}
	}
	if found {
		return SeedDocs{IntentCNL: statements(sections[DocIntent]), ContextCNL: statements(sections[DocContext])}, nil
	}
	docs := splitByReference(statementLines(lines))
	if docs.IntentCNL == "" && docs.ContextCNL == "" {
		return docs, fmt.Errorf("the reply holds no SOP Lang statement (lines starting with @) and no %s / %s heading", DocIntent, DocContext)
	}
	return docs, nil
}

// ExtractDoc reads one SOP document from a reply: the statement lines,
// fenced or not.
func ExtractDoc(reply string) string {
	return statements(strings.Split(strings.ReplaceAll(reply, "\r\n", "\n"), "\n"))
}

// statements keeps the SOP lines of a section: statements, comments and
// blank lines; fences and prose are dropped.
func statements(lines []string) string {
	return strings.Join(statementLines(lines), "\n")
}

func statementLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "@") {
			out = append(out, t)
		}
	}
	return out
}

// splitByReference splits statements into the intent and the context
// document by what they construct or refer to.
func splitByReference(lines []string) SeedDocs {
	intentIDs := map[string]bool{}
	var in, ctx []string
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 {
			ctx = append(ctx, l)
			continue
		}
		id, cmd := strings.TrimPrefix(f[0], "@"), f[1]
		toIntent := cmd == "intent" || cmd == "seed" || cmd == "subproblem"
		for _, a := range f[2:] {
			if strings.HasPrefix(a, "$") && intentIDs[strings.TrimLeft(a, "$[]")] {
				toIntent = true
			}
		}
		if toIntent {
			intentIDs[id] = true
			in = append(in, l)
		} else {
			ctx = append(ctx, l)
		}
	}
	return SeedDocs{IntentCNL: strings.Join(in, "\n"), ContextCNL: strings.Join(ctx, "\n")}
}

// CheckSeedDocs validates both documents with the SOP interpreter (the
// same check the core makes before admitting them) and returns every
// problem, each prefixed with its document name. intentCNL must hold at
// least one intent.
func CheckSeedDocs(d SeedDocs) []string {
	var problems []string
	if strings.TrimSpace(d.IntentCNL) == "" {
		problems = append(problems, DocIntent+": the document is empty; it must hold at least one `intent` statement")
	} else {
		r, err := sop.Interpret(d.IntentCNL)
		problems = append(problems, prefixed(DocIntent, err)...)
		if err == nil && len(r.Intents) == 0 {
			problems = append(problems, DocIntent+": the document holds no `intent` statement")
		}
	}
	if strings.TrimSpace(d.ContextCNL) != "" {
		_, err := sop.Interpret(d.ContextCNL)
		problems = append(problems, prefixed(DocContext, err)...)
	}
	return problems
}

// CheckDoc validates one document and returns its problems.
func CheckDoc(name, doc string) []string {
	_, err := sop.Interpret(doc)
	return prefixed(name, err)
}

func prefixed(name string, err error) []string {
	if err == nil {
		return nil
	}
	errs := sop.AsErrors(err)
	if len(errs) == 0 {
		return []string{name + ": " + err.Error()}
	}
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, name+" "+e.Error())
	}
	return out
}
