package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestSafeFieldAndText(t *testing.T) {
	tests := []struct {
		in, field, text string
	}{
		{"notes/tides.md", "notes/tides.md", "notes/tides.md"},
		{"Café — ünïcode", "Café — ünïcode", "Café — ünïcode"},
		{`C:\notes\a.md`, `C:\notes\a.md`, `C:\notes\a.md`},
		{"a\nb.md", `"a\nb.md"`, "a\nb.md"},
		{"tab\there", `"tab\there"`, "tab\there"},
		{"osc \x1b]52;c;aGk=\x07", `"osc \x1b]52;c;aGk=\a"`, `osc \x1b]52;c;aGk=\a`},
		{"c1 \u009b2J", `"c1 \u009b2J"`, `c1 \u009b2J`},
		{"bidi \u202eexe.txt", `"bidi \u202eexe.txt"`, `bidi \u202eexe.txt`},
		{"del \x7f", `"del \x7f"`, `del \x7f`},
		{"bad \x9b byte", `"bad \x9b byte"`, `bad \x9b byte`},
		{"cr\rover", `"cr\rover"`, `cr\rover`},
		{`"quoted"`, `"\"quoted\""`, `"quoted"`},
	}
	for _, tc := range tests {
		if got := safeField(tc.in); got != tc.field {
			t.Errorf("safeField(%q) = %s, want %s", tc.in, got, tc.field)
		}
		if got := safeText(tc.in); got != tc.text {
			t.Errorf("safeText(%q) = %s, want %s", tc.in, got, tc.text)
		}
	}
}

func TestTermfMakesEveryStringArgumentSafe(t *testing.T) {
	type status string
	var b bytes.Buffer
	termf(&b, "%s|%s|%v|%s|%d|%s\n", "a\x1b", text("x\ny\x1b"), []string{"p\x07"}, status("s\x1b"), 3, errors.New("e\x1b"))
	want := `"a\x1b"|x` + "\n" + `y\x1b|["p\a"]|"s\x1b"|3|e\x1b` + "\n"
	if b.String() != want {
		t.Errorf("termf wrote %q, want %q", b.String(), want)
	}
}

func TestPrintJSONEscapesControls(t *testing.T) {
	in := map[string]string{"title": "osc \x1b]52;c;aGk=\x07 c1 \u009b bidi \u202e del \x7f ok é"}
	var b bytes.Buffer
	if err := printJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\x7f"} {
		if bytes.Contains(b.Bytes(), []byte(c)) {
			t.Errorf("printJSON left %q raw: %s", c, b.String())
		}
	}
	var out map[string]string
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out["title"] != in["title"] {
		t.Errorf("round trip: %q %v", out["title"], err)
	}
}
