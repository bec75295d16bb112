package symbolic

import (
	"strings"

	"github.com/mrpvm/mrpvm/plugin/text"
)

// ActionParticle is the particle a how-to task's verb takes ("up" of "set
// up a swap file", "down" of "shut down the server"), "" when its verb
// stands alone. A phrasal verb means what neither word does alone: "set
// up a file" is not "set a file's label".
func ActionParticle(task string) string {
	words := actionWords(task)
	if len(words) < 2 {
		return ""
	}
	if p := strings.Trim(words[1], ",.;:?!"); particles[p] {
		return p
	}
	return ""
}

// SaysPhrasal reports whether s holds the analysed verb followed by the
// particle ("Set up a swap area" for "set" and "up"), or their one-word
// compound ("setup", "shutdown").
func SaysPhrasal(verb, particle, s string) bool {
	words := strings.Fields(strings.ToLower(s))
	compound := text.Terms(verb + particle)
	for i, w := range words {
		w = strings.Trim(w, ",.;:?!()[]`'\"")
		ts := text.Terms(w)
		if len(ts) != 1 {
			continue
		}
		if len(compound) == 1 && ts[0] == compound[0] {
			return true
		}
		if ts[0] == verb && i+1 < len(words) && strings.Trim(words[i+1], ",.;:?!()[]`'\"") == particle {
			return true
		}
	}
	return false
}

// SaysVerbAlone reports whether s holds the analysed verb without the
// particle after it: the verb in another sense than the phrasal verb's.
func SaysVerbAlone(verb, particle, s string) bool {
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		ts := text.Terms(strings.Trim(w, ",.;:?!()[]`'\""))
		if len(ts) == 1 && ts[0] == verb && (i+1 >= len(words) || strings.Trim(words[i+1], ",.;:?!()[]`'\"") != particle) {
			return true
		}
	}
	return false
}
