// Package symbolic holds the rule-based language helpers shared by the
// symbolic plugins (sd-symbolic, gs-symbolic, val-symbolic): splitting a
// turn into tasks and instructions, picking an act, extracting a subject-
// relation-object fact from a sentence, and content-term overlap.
package symbolic
