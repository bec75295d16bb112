package plugin

import (
	"strings"

	"github.com/mrpvm/mrpvm/plugin/jsonpos"
)

// Locator places errors about a JSON file at the line and column of the key
// they name.
type Locator struct {
	File string
	src  []byte
	ix   *jsonpos.Index // nil when the text is not valid JSON
}

// NewLocator indexes src, the text of file.
func NewLocator(src []byte, file string) *Locator {
	ix, _ := jsonpos.Parse(src)
	return &Locator{File: file, src: src, ix: ix}
}

// Syntax returns a positioned error with the given code when the text is
// not valid JSON, else nil.
func (l *Locator) Syntax(code string) *PluginError {
	line, col, msg, bad := jsonpos.SyntaxPos(l.src)
	if !bad {
		return nil
	}
	if strings.TrimSpace(string(l.src)) == "" {
		msg = "the file is empty"
	}
	return &PluginError{Code: code, Stage: StageLoad, File: l.File, Line: line, Col: col,
		Message: strings.TrimPrefix(msg, "json: ")}
}

// Place sets e.File and, from e.Field (a dotted path such as
// "plannerHints.relativeCost"), e.Line and e.Col. An error without a field,
// or whose field is absent, points at the closest enclosing key or 1:1.
func (l *Locator) Place(e *PluginError) {
	if e.File == "" {
		e.File = l.File
	}
	if e.Line > 0 {
		return
	}
	if l.ix == nil {
		e.Line, e.Col = 1, 1
		return
	}
	e.Line, e.Col = l.ix.KeyPos(FieldPointer(e.Field))
}

// Pos returns the line and column of the key at a dotted field path.
func (l *Locator) Pos(field string) (line, col int) {
	if l.ix == nil {
		return 1, 1
	}
	return l.ix.KeyPos(FieldPointer(field))
}

// FieldPointer turns a dotted field path into a JSON Pointer.
func FieldPointer(field string) string {
	if field == "" {
		return ""
	}
	return jsonpos.Pointer(strings.Split(field, ".")...)
}
