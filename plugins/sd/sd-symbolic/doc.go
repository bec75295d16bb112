// Package sdsymbolic is the built-in sd-plugin sd-symbolic: rule-based,
// deterministic seed detection with no LLM. detectSeeds splits the user's
// turn into tasks (one intent each) and instructions or stated facts (KUs
// scoped to the phase they concern) and writes both SOP Lang documents in
// one pass; normalizePersistentContext groups source text into paragraph
// KUs and extracts a symbolic fact from each fact-bearing sentence.
package sdsymbolic
