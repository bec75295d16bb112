package gssymbolic

import (
	"strings"
	"testing"
)

const iwctlMD = "# iwctl\n\n> Control the `iwd` network supplicant.\n\n" +
	"- Run `iwctl` in interactive mode:\n\n`iwctl`\n\n" +
	"- Display Wi-Fi stations:\n\n`iwctl station list`\n\n" +
	"- Look for networks with a station:\n\n`iwctl station {{station}} scan`\n\n" +
	"- Display the networks found by a station:\n\n`iwctl station {{station}} get-networks`\n"

// TestHyphenatedWordCountsOnce: a hyphenated word of the task ("Wi-Fi",
// analysed as "wi-fi", "wi" and "fi") counts as one word, so the example
// that names it does not outrank the one that names two other words of
// the task ("look", "networks").
func TestHyphenatedWordCountsOnce(t *testing.T) {
	src := parseMD(t, "linux/iwctl.md", iwctlMD)
	md := solveMD(t, "implement", "Using iwctl, how do I make my Wi-Fi card look for networks?", "Using iwctl, how do I make my Wi-Fi card look for networks", []mdSource{src}, src.soleLeaf(t))
	look, display := strings.Index(md, "Look for networks"), strings.Index(md, "Display Wi-Fi stations")
	if look < 0 || display >= 0 && display < look {
		t.Errorf("the answer does not lead with the scan example:\n%s", md)
	}
}

func TestWordOverlap(t *testing.T) {
	want := []string{"iwctl", "wi-fi", "wi", "fi", "network"}
	if got := wordOverlap(want, map[string]bool{"wi-fi": true, "wi": true, "fi": true}); got != 1.0/3 {
		t.Errorf("the whole word = %v, want 1/3", got)
	}
	if got := wordOverlap(want, map[string]bool{"wi": true}); got != 0.5/3 {
		t.Errorf("one part of two = %v, want 0.5/3", got)
	}
	if got := wordOverlap([]string{"a", "b"}, map[string]bool{"a": true}); got != 0.5 {
		t.Errorf("no hyphenated word = %v, want 0.5", got)
	}
}
