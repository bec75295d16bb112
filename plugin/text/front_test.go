package text

import (
	"fmt"
	"strings"
	"testing"
)

// TestFrontSameTokens compares the analyzer with the golden files recorded
// from the analyzer before the front cache, on the
// words the front cache handles and those at its edges: lengths 15 to 17,
// cases, digits alone or mixed with letters, stop words in capitals, words ended by connectors
// or by runes outside ASCII, and
// more distinct words than a front has slots (so slots are replaced), each
// text analysed twice so the second pass hits the front.
func TestFrontSameTokens(t *testing.T) {
	texts := []string{
		"abcdefghijklmno abcdefghijklmnop abcdefghijklmnopq ABCDEFGHIJKLMNOP Abcdefghijklmnopq",
		"123456789012345 1234567890123456 12345678901234567 a1 A1b2 7 07 IL6 Il6 il6",
		"THE The the OF Of running RUNNING Running runs RUNS s S i I",
		"nationalization NATIONALIZATIONS internationalization Internationalization",
		"cells. Cells, 1,000 1,00 3.14 3.x don't It's x-ray X_ray abcé Abc’s naïve ok.\n" +
			"end. a.b a, b' 'c 12,345,678 9. --flag -x 中文abc abc中文 ΑΒΓabc TNF-α NF-κB α",
	}
	var many []string
	for i := range 3 * frontSlots {
		many = append(many, fmt.Sprintf("w%cq%d", 'a'+i%26, i/26), fmt.Sprint(i*7919))
	}
	texts = append(texts, strings.Join(many, " "))
	checkGoldenDigests(t, "front-default.golden", DefaultOptions(), texts)
	checkGoldenDigests(t, "front-stem-5.golden", Options{Stem: true, MaxTokenLen: 5}, texts)
}
