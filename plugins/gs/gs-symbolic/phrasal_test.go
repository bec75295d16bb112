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
