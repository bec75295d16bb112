package gssymbolic

import (
	"strings"
	"testing"
)

// TestPhrasalVerbChoosesThePage: "set up a file" is answered by the page
// that sets one up, not by the page whose examples set a label, once the
// evidence says the phrasal verb somewhere: the verb alone is another
// action.
func TestPhrasalVerbChoosesThePage(t *testing.T) {
	label := parseMD(t, "linux/vollabel.md", "# vollabel\n\n> Print or change the label of a storage volume.\n\n"+
		"- Set the label of a volume file:\n\n`vollabel -L {{label}} {{path/to/file}}`\n\n"+
		"- Set the UUID of a volume file:\n\n`vollabel -U {{uuid}} {{path/to/file}}`\n\n"+
		"- Display the label of a volume:\n\n`vollabel {{path/to/file}}`\n")
	mk := parseMD(t, "linux/mkvol.md", "# mkvol\n\n> Set up a storage volume on a device or in a file.\n\n"+
		"- Set up a given volume:\n\n`mkvol {{path/to/file}}`\n\n"+
		"- Check a device for bad blocks first:\n\n`mkvol -c {{path/to/file}}`\n")
	md := solveMD(t, "implement", "How do I set up a file to be used as a storage volume?", "set up a file to be used as a storage volume",
		[]mdSource{label, mk}, label.soleLeaf(t), mk.soleLeaf(t))
	if !strings.Contains(md, "mkvol") || strings.Contains(md, "vollabel -L") {
		t.Errorf("answer is not from mkvol:\n%s", md)
	}
}

// TestHyphenatedWordWeighsOnce: a hyphenated word of the task
// ("human-readable") weighs as its parts, not as its parts and itself,
// so a page that only shares it (a flag that prints sizes
// human-readable) does not outweigh the page that does the task with the
// rest of its words ("1.5K" into a number). The pages are tldr-pages'.
func TestHyphenatedWordWeighsOnce(t *testing.T) {
	conv := parseMD(t, "common/numfmt.md", "# numfmt\n\n> Convert numbers to and from human-readable strings.\n> More information: <https://www.gnu.org/software/coreutils/manual/html_node/numfmt-invocation.html>.\n\n- Convert 1.5K (SI Units) to 1500:\n\n`numfmt --from si 1.5K`\n\n- Convert 1500 to 1.5K (SI Units):\n\n`numfmt --to si 1500`\n\n- Convert 1.5K (IEC Units) to 1536:\n\n`numfmt --from iec 1.5K`\n\n- Use appropriate conversion based on the suffix:\n\n`numfmt --from auto {{1.5Ki}}`\n\n- Convert 5th field (1-indexed) to IEC Units without converting header:\n\n`ls -l | numfmt --header=1 --field 5 --to iec`\n\n- Convert to IEC units, pad with 5 characters, left aligned:\n\n`du {{[-s|--summarize]}} * | numfmt --to iec --format \"%-5f\"`\n")
	sizes := parseMD(t, "common/git-count-objects.md", "# git count-objects\n\n> Count the number of unpacked objects and their disk consumption.\n> More information: <https://git-scm.com/docs/git-count-objects>.\n\n- Count all objects and display the total disk usage:\n\n`git count-objects`\n\n- Display a count of all objects and their total disk usage, displaying sizes in human-readable units:\n\n`git count-objects {{[-H|--human-readable]}}`\n\n- Display more verbose information:\n\n`git count-objects {{[-v|--verbose]}}`\n\n- Display more verbose information, displaying sizes in human-readable units:\n\n`git count-objects {{[-H|--human-readable]}} {{[-v|--verbose]}}`\n")
	md := solveMD(t, "implement", "How can I change a human-readable size such as 1.5K back into a plain number?",
		"change a human-readable size such as 1.5K back into a plain number", []mdSource{conv, sizes}, conv.soleLeaf(t), sizes.soleLeaf(t))
	if !strings.Contains(md, "numfmt --from") {
		t.Errorf("answer is not numfmt's conversion:\n%s", md)
	}
}
