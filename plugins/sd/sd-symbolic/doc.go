// Package sdsymbolic is the built-in sd-plugin sd-symbolic: rule-based,
// deterministic seed detection with no LLM. detectSeeds splits the user's
// turn into tasks (one intent each) and instructions or stated facts (KUs
// scoped to the phase they concern) and writes both SOP Lang documents in
// one pass. A wish beside a question of the same turn ("I want to
// contribute a plugin. Which files do I change?") says what the question
// is for and is not read as a how-to (symbolic.ActBeside).
// normalizePersistentContext groups source text into paragraph
// KUs and extracts a symbolic fact from each fact-bearing sentence.
package sdsymbolic
