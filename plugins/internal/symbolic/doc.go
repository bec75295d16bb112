// Package symbolic holds the rule-based language helpers shared by the
// symbolic plugins (sd-symbolic, gs-symbolic, val-symbolic): splitting a
// turn into tasks and instructions, picking an act, finding a task's action
// verb (with the particle of a phrasal verb, "set up", and whether a text
// says that phrasal verb), extracting a subject-relation-object fact from a
// sentence, and content-term overlap weighed by rarity.
package symbolic
