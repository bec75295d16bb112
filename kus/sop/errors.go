package sop

import (
	"fmt"
	"strings"

	ptext "github.com/mrpvm/mrpvm/plugin/text"
)

// Code is a stable, machine-readable error code.
type Code string

// Error codes. They are part of the package's contract: tests, traces and
// corrective prompts rely on them, so they never change meaning.
const (
	// CodeSyntax: a line is not `@id command arg...` (missing @id, bad id,
	// stray character, control character, text glued to a token, nested list).
	CodeSyntax Code = "sop_syntax"
	// CodeUnterminatedString: a double-quoted string has no closing quote on
	// its line (strings never span lines; write \n instead).
	CodeUnterminatedString Code = "sop_unterminated_string"
	// CodeUnterminatedList: a list has no closing ] on its line.
	CodeUnterminatedList Code = "sop_unterminated_list"
	// CodeBadEscape: an unknown or malformed backslash escape in a string.
	CodeBadEscape Code = "sop_bad_escape"
	// CodeBadEncoding: the line is not valid UTF-8.
	CodeBadEncoding Code = "sop_bad_encoding"
	// CodeTooLarge: the document, a line or a list exceeds a [Limits] bound.
	CodeTooLarge Code = "sop_too_large"
	// CodeTooManyErrors: error collection stopped at [Limits.MaxErrors].
	CodeTooManyErrors Code = "sop_too_many_errors"
	// CodeDuplicateID: a statement id (or a KU id) is used twice.
	CodeDuplicateID Code = "sop_duplicate_id"
	// CodeUnknownRef: $id names no statement of the document.
	CodeUnknownRef Code = "sop_unknown_ref"
	// CodeForwardRef: $id names a statement that comes later; references
	// must point backwards.
	CodeForwardRef Code = "sop_forward_ref"
	// CodeBadRef: $id names a statement of the wrong kind (for example a set
	// statement, or a KU where an intent is required) or the statement itself.
	CodeBadRef Code = "sop_bad_ref"
	// CodeUnknownCommand: the command is not part of the language.
	CodeUnknownCommand Code = "sop_unknown_command"
	// CodeBadArity: a command has too few or too many arguments.
	CodeBadArity Code = "sop_bad_arity"
	// CodeBadField: set names a field that is not legal for the kind, or a
	// field that is not allowed in this position (symbolic facts on
	// non-atomic KUs).
	CodeBadField Code = "sop_bad_field"
	// CodeBadValue: a value has the wrong shape (list for a scalar, empty
	// text, unknown act/role/phase scope, number out of range, bad time).
	CodeBadValue Code = "sop_bad_value"
	// CodeDuplicateField: a scalar field is set twice on the same object.
	CodeDuplicateField Code = "sop_duplicate_field"
	// CodeMissingField: a required field was never set (an intent without
	// output, a KU without sourceId/chunkId/role/topic or without both claim
	// and procedure).
	CodeMissingField Code = "sop_missing_field"
	// CodeClaimAndProcedure: a KU sets both claim and procedure.
	CodeClaimAndProcedure Code = "sop_claim_and_procedure"
	// CodePartialFact: a KU sets some but not all of symbolicSubject,
	// symbolicRelation and symbolicObject (or a confidence without a fact).
	CodePartialFact Code = "sop_partial_fact"
)

// Codes lists every error code, in declaration order.
var Codes = []Code{CodeSyntax, CodeUnterminatedString, CodeUnterminatedList, CodeBadEscape,
	CodeBadEncoding, CodeTooLarge, CodeTooManyErrors, CodeDuplicateID, CodeUnknownRef,
	CodeForwardRef, CodeBadRef, CodeUnknownCommand, CodeBadArity, CodeBadField, CodeBadValue,
	CodeDuplicateField, CodeMissingField, CodeClaimAndProcedure, CodePartialFact}

// Error is one problem of a document.
type Error struct {
	Line int    // 1-based line; 0 when the problem concerns the whole document
	Col  int    // 1-based byte column; 0 when unknown
	ID   string // the statement id without @, when known
	Code Code
	Msg  string
}

// Error renders the error as `line 3 (@k2): sop_unknown_ref: $k9 is not
// defined`; the line and id parts are left out when unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d", e.Line)
		if e.ID != "" {
			fmt.Fprintf(&b, " (@%s)", e.ID)
		}
		b.WriteString(": ")
	} else if e.ID != "" {
		fmt.Fprintf(&b, "@%s: ", e.ID)
	}
	b.WriteString(string(e.Code))
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// String is the same as Error.
func (e *Error) String() string { return e.Error() }

// Errors is the list of problems of a document, in the order found (line
// order for syntax errors, then statement order, then end-of-document checks).
type Errors []*Error

// Error renders one error a line.
func (es Errors) Error() string { return ptext.JoinFunc(es, "\n", (*Error).Error) }

// String is the same as Error.
func (es Errors) String() string { return es.Error() }

// Has reports whether some error carries code c.
func (es Errors) Has(c Code) bool {
	for _, e := range es {
		if e.Code == c {
			return true
		}
	}
	return false
}

// AsErrors returns the Errors held by err (as returned by this package), or
// nil when err is nil or of another type.
func AsErrors(err error) Errors {
	es, _ := err.(Errors)
	return es
}

// collector gathers errors up to a cap.
type collector struct {
	max  int
	errs Errors
	full bool
}

func (c *collector) add(line, col int, id string, code Code, format string, args ...any) {
	if c.full {
		return
	}
	if c.max > 0 && len(c.errs) >= c.max {
		c.full = true
		c.errs = append(c.errs, &Error{Code: CodeTooManyErrors,
			Msg: fmt.Sprintf("stopped after %d errors", c.max)})
		return
	}
	c.errs = append(c.errs, &Error{Line: line, Col: col, ID: id, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// fatal records an error that stops processing, even when the list is full.
func (c *collector) fatal(line int, id string, code Code, format string, args ...any) {
	c.errs = append(c.errs, &Error{Line: line, ID: id, Code: code, Msg: fmt.Sprintf(format, args...)})
	c.full = true
}

func (c *collector) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}
