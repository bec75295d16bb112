package bm25

import (
	"sync"

	"github.com/mrpvm/mrpvm/plugin/text"
)

// Question boilerplate. A question says what it asks about with its nouns
// and verbs ("follow a log file", "kill processes by name"); the words that
// make it a question or a request ("how many", "is there a way", "I want
// to") say nothing about which page answers it, yet as rare-ish words they
// would match pages that happen to use them (a page titled "just", a "many"
// in some description). questionWords are dropped from queries; lightVerbs,
// verbs so general that they carry the action only together with their
// object ("make executable", "get the name", "see details"), keep a small
// weight so that their object decides. Both are general English, not
// tuned to any collection; they apply to queries only, never to documents.
var (
	questionWords = []string{
		"how", "what", "which", "why", "when", "where", "who", "whom", "whose", "whether",
		"many", "much", "just", "can", "could", "would", "should", "may", "might", "must", "shall", "will",
		"possible", "possibly", "way", "ways", "want", "wants", "wanted", "need", "needs", "wish", "like",
		"please", "tell", "know", "somehow", "something", "anything", "thing", "things", "also",
		"actually", "really", "exactly", "simply", "easily", "quickly", "best", "correct", "correctly",
		"able", "instead", "etc", "e.g", "i.e", "someone", "one's", "mine",
	}
	lightVerbs = []string{
		"get", "gets", "getting", "make", "makes", "making", "see", "do", "does", "doing", "done",
		"give", "gives", "take", "takes", "put", "go", "goes", "let", "try", "have", "has", "use", "using", "used",
		"work", "works", "happen", "happens", "keep", "set",
	}
	lightWeight = 0.35
)

// queryWeightsCache holds the query-term weights of each analyzer:
// *text.Analyzer -> map[string]float64.
var queryWeightsCache sync.Map

// queryWeights returns the query-term weights of analyzer a: 0 for
// question words, lightWeight for light verbs (as a's terms, so stems
// match).
func queryWeights(a *text.Analyzer) map[string]float64 {
	if m, ok := queryWeightsCache.Load(a); ok {
		return m.(map[string]float64)
	}
	m := map[string]float64{}
	for _, w := range lightVerbs {
		for _, t := range a.Append(nil, w) {
			m[t] = lightWeight
		}
	}
	for _, w := range questionWords {
		for _, t := range a.Append(nil, w) {
			m[t] = 0
		}
	}
	queryWeightsCache.Store(a, m)
	return m
}

// QueryWeight is the weight a query gives term t: 0 for question
// boilerplate, a small weight for light verbs, 1 otherwise.
func (x *Index) QueryWeight(t string) float64 {
	if w, ok := queryWeights(x.p.Analyzer)[t]; ok {
		return w
	}
	return 1
}

// avoidedTerms are the terms of the clauses of q that name an action the
// user avoids ("without deleting it", "instead of copying it",
// text.Avoided) and that the rest of q does not also hold; nil when q has
// no such clause. They constrain the answer and do not say which page gives
// it: a page about deleting files must not win "empty a log file without
// deleting it", so queries leave them out.
func (x *Index) avoidedTerms(q string) map[string]bool {
	sought, avoided := text.Avoided(q)
	if avoided == "" {
		return nil
	}
	out := map[string]bool{}
	for _, t := range x.p.Analyzer.Append(nil, avoided) {
		out[t] = true
	}
	for _, t := range x.p.Analyzer.Append(nil, sought) {
		delete(out, t)
	}
	return out
}
