package gssymbolic

import (
	"strings"
	"testing"
)

// encodingPage declares its types in a block a paragraph introduces, and
// narrates an example program in another.
const encodingPage = "# widget\n\n## New encoding API\n\n" +
	"Widget lets you customise the encoding layer with an API for encoding and decoding data:\n\n" +
	"```go\n// Encoder encodes the internal data structures into bytes.\ntype Encoder interface {\n\tEncode(v map[string]any) ([]byte, error)\n}\n\n" +
	"// Codec combines the Encoder and Decoder interfaces.\ntype Codec interface {\n\tEncoder\n\tDecoder\n}\n```\n\n" +
	"You may pick the codec by environment:\n\n" +
	"```go\nif env == \"production\" {\n\t// do something here to choose the codec for production\n\tuse(jsonCodec)\n}\n```\n"

// TestDeclarationCommentsOfIntroducedCode: a comment over a declaration
// in a code block a paragraph introduces documents what it declares, and
// answers what it is; a comment narrating an introduced program does not
// count.
func TestDeclarationCommentsOfIntroducedCode(t *testing.T) {
	src := parseMD(t, "widget/UPGRADE.md", encodingPage)
	said := map[string]bool{}
	for _, s := range commentStatements(statementsOf(src.leaf(t, "New encoding API"), srcCorpus{src.id: src.md})) {
		said[s.text] = len(s.block) > 0
	}
	if !said["Codec combines the Encoder and Decoder interfaces."] || !said["Encoder encodes the internal data structures into bytes."] {
		t.Errorf("want the comments over the introduced declarations, with their code: %v", said)
	}
	for text := range said {
		if strings.HasPrefix(text, "do something") {
			t.Errorf("a comment of an introduced program read: %q", text)
		}
	}
}

// TestPickShowsIntroducedCodeOnce: a comment read from a code block and
// the statement introducing the block show the same code; the first
// picked stands for both.
func TestPickShowsIntroducedCodeOnce(t *testing.T) {
	src := parseMD(t, "widget/UPGRADE.md", encodingPage)
	k := src.leaf(t, "New encoding API")
	ss := statementsOf(k, srcCorpus{src.id: src.md})
	var intro, comment statement
	for _, s := range ss {
		if strings.HasPrefix(s.text, "Widget lets you") {
			intro = s
		}
	}
	for _, s := range commentStatements(ss) {
		if strings.HasPrefix(s.text, "Codec combines") {
			comment = s
		}
	}
	if intro.text == "" || comment.text == "" {
		t.Fatalf("statements not read: %q %q", intro.text, comment.text)
	}
	other := scored{statement: statement{kind: kindSentence, text: "Another statement."}, ku: k, score: 1.5}
	got := pick([]scored{{statement: intro, ku: k, score: 2}, {statement: comment, ku: k, score: 1.8}, other}, 3)
	if len(got) != 2 || got[0].text != intro.text || got[1].text != other.text {
		t.Errorf("introduction then comment: picked %v", got)
	}
	got = pick([]scored{{statement: comment, ku: k, score: 2}, {statement: intro, ku: k, score: 1.8}, other}, 3)
	if len(got) != 2 || got[0].text != intro.text || got[1].text != other.text {
		t.Errorf("comment then introduction: picked %v", got)
	}
}
