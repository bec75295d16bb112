// Package sop implements SOP Lang Control, the small statement language in
// which seed detectors write intentCNL, currentTurnContextCNL and contextCNL
// (docs/contracts.md, Seed detection).
//
// A document holds one statement a line:
//
//	@id command arg...
//
// Ids match [A-Za-z0-9_:-]+ and are unique in a document. An argument is an
// atom (a bare word such as comparative_recommendation or src-001::chunk-000),
// a back-reference $id to an earlier statement, a double-quoted string with
// backslash escapes (\" \\ \n \r \t \uXXXX) or a list [a b c] of those.
// Blank lines and lines starting with # are ignored, and so is the rest of a
// line after a # that starts a token.
//
// Commands are constructors (intent, seed, subproblem, plugin, ku, validate,
// policy, objective, candidate, compare, challenge, branch, result_record),
// set (`set $ref field value`, the field legal for the kind of $ref),
// relations (constrain, allows, needs, uses, supports, describes, parent,
// derived_from, split_from, result) and status commands (status, fail,
// deactivate).
//
// [Parse] turns text into a [Program]; [Interpret] (or [Limits.Interpret])
// parses, validates and executes a document into a [Result] holding typed
// intents, seeds, Knowledge Units ([kus.KU]), plugin references, other
// objects, relations and statuses. A document is admitted only as a whole: on
// any error Interpret returns a nil Result and an [Errors] list naming the
// line, the statement id and a stable [Code] of every problem found (up to
// [Limits.MaxErrors]), so that a corrective LLM retry can quote them all.
//
// [Writer] emits SOP text from Go values. Free text is always written as a
// quoted string with newlines escaped, so text that happens to contain lines
// such as `@x set $k1 role Narrative` stays data inside one statement and is
// never interpreted.
//
// Parse, Interpret and Run are safe for concurrent use; a Writer is not.
package sop
