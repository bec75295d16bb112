package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Everything a command prints goes through this file: its result through
// printResult (JSON with --json, else text for a person), warnings and
// notes through warnf and notef. What is printed for a person goes
// through termf, warnf or safeText: file names, headings, answers and
// messages come from the workspace, and a terminal obeys the control
// characters in them (an OSC 52 sequence in a heading writes the user's
// clipboard, a line feed in a file name forges an output line, a bidi
// override reorders what is shown).

// unsafeRune reports whether r must not reach a terminal as it is: C0
// controls, DEL, C1 controls, the bidirectional formatting characters and
// the Unicode line and paragraph separators. utf8.RuneError stands for a
// byte that is not UTF-8 (0x9b alone is CSI to an 8-bit terminal).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == utf8.RuneError:
		return true
	}
	return false
}

// needsQuote reports whether s holds an unsafe rune (keep lists the ones
// running text may keep) or an invalid byte.
func needsQuote(s string, keep string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return true
			}
			continue
		}
		if unsafeRune(r) && !strings.ContainsRune(keep, r) {
			return true
		}
	}
	return false
}

// safeField renders one field of an output line (a file name, a heading,
// an id): as it is when it is safe, else Go-quoted, so every control
// character shows as a visible escape (\n, \x1b, \u202e) and the quotes
// tell an escaped name from one that holds a backslash. A field that
// begins with a quote is quoted too, so it cannot pass for an escaped one.
func safeField(s string) string {
	if !needsQuote(s, "") && !strings.HasPrefix(s, `"`) {
		return s
	}
	return strconv.Quote(s)
}

// safeText renders running text (an answer, a message): line feeds and
// tabs stay, every other unsafe rune becomes its visible escape.
func safeText(s string) string {
	if !needsQuote(s, "\n\t") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t' || !unsafeRune(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// text marks an argument of termf that is running text (safeText) rather
// than a field (safeField).
type text string

// termf is fmt.Fprintf for terminal output: every string (of any string
// type), error, Stringer and []string argument is made safe first (fields by safeField, text and
// errors by safeText). The format itself is the program's own.
func termf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, format, safeArgs(args)...)
}

func safeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = safeField(v)
		case text:
			out[i] = safeText(string(v))
		case error:
			out[i] = safeText(v.Error())
		case []string:
			s := make([]string, len(v))
			for j, x := range v {
				s[j] = safeField(x)
			}
			out[i] = s
		case fmt.Stringer:
			out[i] = safeField(v.String())
		default:
			if rv := reflect.ValueOf(a); rv.Kind() == reflect.String { // named string types
				out[i] = safeField(rv.String())
			} else {
				out[i] = a
			}
		}
	}
	return out
}

// escapeJSONControls rewrites, in encoded JSON, the characters
// encoding/json leaves raw that a terminal may still act on (DEL, C1
// controls, bidirectional formatting): they can only occur inside JSON
// strings, where \uXXXX means the same character.
func escapeJSONControls(b []byte) []byte {
	var out *bytes.Buffer
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r >= 0x7f && r != utf8.RuneError && unsafeRune(r) {
			if out == nil {
				out = bytes.NewBuffer(make([]byte, 0, len(b)+16))
				out.Write(b[:i])
			}
			fmt.Fprintf(out, `\u%04x`, r)
		} else if out != nil {
			out.Write(b[i : i+n])
		}
		i += n
	}
	if out == nil {
		return b
	}
	return out.Bytes()
}

// printResult prints a command's result on standard output: v as JSON
// with --json, else what human writes for a person.
func printResult(v any, human func(w io.Writer) error) error {
	if flags.json {
		return printJSON(os.Stdout, v)
	}
	return human(os.Stdout)
}

// printJSON writes v as indented JSON followed by a newline.
// Control characters stay escaped, including those encoding/json leaves
// raw (escapeJSONControls).
func printJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSONControls(b.Bytes()))
	return err
}

// warnf prints a warning line on standard error; its arguments are made
// safe for a terminal as termf does.
func warnf(format string, args ...any) {
	termf(os.Stderr, "mrpvm: warning: "+format+"\n", args...)
}

// notef prints an informational line on standard error unless --quiet;
// its arguments are made safe for a terminal as termf does.
func notef(format string, args ...any) {
	if flags.quiet {
		return
	}
	termf(os.Stderr, "mrpvm: note: "+format+"\n", args...)
}
