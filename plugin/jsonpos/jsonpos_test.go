package jsonpos

import (
	"encoding/json"
	"testing"
)

const doc = `{
  "a": 1,
  "b/c": {"d": [true, "x\"y", {"e~f": null}]},
  "g": "h"
}`

func TestIndex(t *testing.T) {
	ix, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ptr       string
		line, col int
		raw       string
	}{
		{"", 1, 1, doc},
		{"/a", 2, 3, "1"},
		{"/b~1c", 3, 3, `{"d": [true, "x\"y", {"e~f": null}]}`},
		{"/b~1c/d/1", 3, 23, `"x\"y"`},
		{"/b~1c/d/2/e~0f", 3, 32, "null"},
		{"/g", 4, 3, `"h"`},
	}
	for _, c := range cases {
		n, ok := ix.Lookup(c.ptr)
		if !ok {
			t.Errorf("%q not indexed", c.ptr)
			continue
		}
		if l, col := ix.LineCol(n.KeyOffset); l != c.line || col != c.col {
			t.Errorf("%q at %d:%d, want %d:%d", c.ptr, l, col, c.line, c.col)
		}
		if string(n.Raw) != c.raw {
			t.Errorf("%q raw %s, want %s", c.ptr, n.Raw, c.raw)
		}
	}
	if l, c := ix.KeyPos("/b~1c/missing/deeper"); l != 3 || c != 3 {
		t.Errorf("fallback to ancestor gave %d:%d", l, c)
	}
	if got := Tokens(Pointer("b/c", "e~f")); len(got) != 2 || got[0] != "b/c" || got[1] != "e~f" {
		t.Errorf("Tokens(Pointer) = %q", got)
	}
}

func TestErrorPositions(t *testing.T) {
	if _, err := Parse([]byte("{\n  \"a\": ,\n}")); err != ErrInvalid {
		t.Fatalf("Parse of invalid JSON: %v", err)
	}
	line, col, _, bad := SyntaxPos([]byte("{\n  \"a\": ,\n}"))
	if !bad || line != 2 || col != 8 {
		t.Errorf("syntax error at %d:%d (%v)", line, col, bad)
	}
	if _, _, _, bad := SyntaxPos([]byte(`{"a":1}`)); bad {
		t.Error("valid JSON reported as bad")
	}
	line, _, _, _ = SyntaxPos([]byte("{\n\"a\": 1,\n"))
	if line != 2 {
		t.Errorf("unexpected end at line %d, want 2 (the last byte)", line)
	}
	src := []byte("{\n  \"n\": 1,\n  \"s\": \"text\"\n}")
	var v struct{ S int }
	err := json.Unmarshal(src, &v)
	line, col, ok := ErrorPos(src, err)
	if !ok || line != 3 || col != 8 {
		t.Errorf("type error at %d:%d (%v): %v", line, col, ok, err)
	}
}
