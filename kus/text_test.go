package kus

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"
)

// classifyRef is classify as first written: one substring search per cue.
// The table-driven classify must agree with it on every input.
func classifyRef(title, text string, kinds blockKind) string {
	lt := strings.ToLower(title)
	head := text
	if len(head) > 240 {
		head = head[:240]
	}
	head = strings.ToLower(head)
	has := func(s string, words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	isDef := func(head string) bool {
		for _, cue := range []string{" is a ", " is an ", " are a ", " is the ", " refers to ", " means "} {
			if i := strings.Index(head, cue); i > 0 && i < 60 && !strings.ContainsAny(head[:i], ".,;:") {
				return true
			}
		}
		return false
	}
	switch {
	case has(lt, "how to", "install", "setup", "set up", "steps", "getting started", "quick start", "quickstart", "usage", "tutorial", "build", "configure", "procedure"),
		kinds&kindOrderedList != 0,
		kinds&kindCode != 0 && kinds&^(kindCode|kindParagraph) == 0 && strings.HasSuffix(strings.TrimSpace(firstSentence(text, 400)), ":"):
		return "Procedure"
	case has(lt, " vs", "versus", "compar", "difference", "trade-off", "tradeoff", "alternatives"),
		has(head, " versus ", "compared to", "compared with", " whereas "):
		return "Comparison"
	case has(lt, "error", "troubleshoot", "problem", "debug", "fix", "issue", "faq", "pitfall"),
		has(head, "fails", "error:", "if you see", "crash"):
		return "Diagnostic"
	case has(lt, "definition", "what is", "glossary", "terminology", "concept"), isDef(head):
		return "Definition"
	case has(lt, "rule", "constraint", "requirement", "limit", "policy"),
		has(head, " must ", " must not ", " never ", " is required", " are required", " should not "):
		return "Constraint"
	case has(lt, "evaluat", "benchmark", "performance", "result", "measure"):
		return "Evaluation"
	case has(lt, "why", "how it works", "overview", "architecture", "design", "background", "introduction"),
		has(head, " because ", " therefore ", " so that ", " which means "):
		return "Explanation"
	}
	return "Description"
}

// hashKURef is HashKU as first written.
func hashKURef(k *KU) string {
	h := sha256.New()
	for _, s := range []string{k.ID, k.KUType, k.Title, k.Role, k.Topic, k.Claim, k.Procedure, k.Condition, k.TextBody,
		k.SymbolicSubject, k.SymbolicRelation, k.SymbolicObject, strings.Join(k.UtilityActs, ","), strings.Join(k.PhaseScopes, ",")} {
		h.Write([]byte(s))
		h.Write([]byte{0x1f})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// randomCueText strings cue words, filler, punctuation, case changes and
// non-ASCII letters together, so matches fall at every position, across
// the 240-byte cut and around byte 60 of the definition check.
func randomCueText(rng *rand.Rand) string {
	pieces := []string{"how to", "Install", "SET UP", " vs", "versus", "compar", "Trade-off", "error:", "fails", "crash",
		"what is", " is a ", " is an ", " are a ", " is the ", " refers to ", " means ", " must ", " must not ",
		" never ", " is required", " should not ", " because ", " therefore ", " so that ", " which means ",
		"why", "overview", "Benchmark", "result", "limit", "policy", "FAQ", "fix", "whereas", " compared to ",
		"word", " ", "  ", ".", ",", ";", ":", "\n", "\t", "É", "ÉCOLE", "ß", "İ", "\u00a0", "\u2028", "x", "é", "K", "ǅ"}
	var b strings.Builder
	n := rng.Intn(60)
	for i := 0; i < n; i++ {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return b.String()
}

func TestClassifyMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	kinds := []blockKind{0, kindParagraph, kindList, kindOrderedList, kindCode, kindCode | kindParagraph, kindTable | kindQuote}
	for i := 0; i < 50000; i++ {
		title, text := randomCueText(rng), randomCueText(rng)
		if i%3 == 0 {
			text = strings.Repeat("filler text ", rng.Intn(30)) + text
		}
		k := kinds[rng.Intn(len(kinds))]
		if got, want := classify(title, text, k), classifyRef(title, text, k); got != want {
			t.Fatalf("classify(%q, %q, %d) = %s, want %s", title, text, k, got, want)
		}
	}
	for _, d := range loadSciFactMarkdown(t) {
		s := string(d)
		title, body, _ := strings.Cut(s, "\n\n")
		if got, want := classify(title, body, kindParagraph), classifyRef(title, body, kindParagraph); got != want {
			t.Fatalf("classify(%q, ...) = %s, want %s", title, got, want)
		}
	}
}

func TestJoinFieldsMatchesFields(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, s := range []string{"", " ", "a", " a", "a ", "a b", "a  b", "a\tb", "a\u00a0b", "a\u0085b", "é b", "a\u3000"} {
		if got, want := joinFields(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("joinFields(%q) = %q, want %q", s, got, want)
		}
	}
	for i := 0; i < 50000; i++ {
		s := randomCueText(rng)
		if got, want := joinFields(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("joinFields(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestHashKUMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		k := &KU{ID: randomCueText(rng), Title: randomCueText(rng), TextBody: strings.Repeat(randomCueText(rng), rng.Intn(200)),
			Claim: randomCueText(rng), SymbolicObject: randomCueText(rng)}
		if i%2 == 0 {
			k.UtilityActs = []string{"describe", randomCueText(rng)}
			k.PhaseScopes = []string{"kb-plugin"}
		}
		if got, want := HashKU(k), hashKURef(k); got != want {
			t.Fatalf("HashKU = %s, want %s", got, want)
		}
	}
}
