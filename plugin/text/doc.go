// Package text is the text analysis shared by mrpvm plugins: a Unicode-aware
// tokenizer with lowercasing, English stop words and Snowball English
// stemming. Identifiers that a technical reader searches for as a whole —
// numbers (3.14, 1,000, v1.2.3), hyphenated or underscored names (kb-fast,
// x86-64, snake_case) and command-line flags (--directory) — are kept intact
// as one token; their parts are emitted too (Options.Parts) so that a query
// for "fast" still finds "kb-fast".
//
// Scripts written without spaces between words (Han, Hiragana, Katakana,
// Thai, Lao, Khmer, Myanmar) are split into one token per character.
//
// JoinFunc builds a text from the strings of items, as the parsers that
// assemble units and phrases from pieces need. Avoided splits a request into
// what it seeks and the actions it asks to avoid ("without deleting it").
//
// An Analyzer is safe for concurrent use. It caches stems, so repeated words
// cost neither a stemmer call nor an allocation, and numbers its terms
// (Token.ID).
package text
