// Package lexicon knows which English words are related in meaning: for an
// analysed term (plugin/text), its synonyms, derivationally related forms
// and broader terms, and the parts of speech it has senses in, from a table derived from WordNet 3.0 and embedded in
// the binary in a compact form that lookups read in place (see gen/ for how
// it is built and LICENSE.WordNet for WordNet's licence). Retrieval uses it
// to reach pages that say what a question asks in other words; the table is
// general English, built without reference to any knowledge base.
package lexicon
