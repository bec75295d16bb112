package llm

import (
	"fmt"
	"log/slog"
	"strings"
)

// redacted is what a Secret shows instead of its value.
const redacted = "[REDACTED]"

// Secret holds an API key. It renders as [REDACTED] (or "" when empty) in
// every fmt verb, in JSON, in text marshalling and in slog. The value sits
// behind a pointer so that even reflection-based printing of a struct that
// embeds a Secret in an unexported field shows only an address. Use Reveal
// to read the key, and only to put it on the wire.
type Secret struct {
	p *string
}

// NewSecret wraps a key; surrounding white space (a trailing newline in a
// key file) is dropped.
func NewSecret(key string) Secret {
	key = strings.TrimSpace(key)
	if key == "" {
		return Secret{}
	}
	return Secret{p: &key}
}

// Reveal returns the key. Only the HTTP layer calls it.
func (s Secret) Reveal() string {
	if s.p == nil {
		return ""
	}
	return *s.p
}

// IsSet reports whether a key is held.
func (s Secret) IsSet() bool { return s.p != nil && *s.p != "" }

func (s Secret) shown() string {
	if s.IsSet() {
		return redacted
	}
	return ""
}

// String returns [REDACTED], or "" when no key is held.
func (s Secret) String() string { return s.shown() }

// GoString returns the same as String, for %#v.
func (s Secret) GoString() string { return fmt.Sprintf("llm.Secret(%q)", s.shown()) }

// Format makes every verb (%v, %+v, %#v, %s, %q, %x, ...) print the
// redacted form.
func (s Secret) Format(f fmt.State, verb rune) {
	switch verb {
	case 'v':
		if f.Flag('#') {
			fmt.Fprint(f, s.GoString())
			return
		}
		fmt.Fprint(f, s.shown())
	case 'q':
		fmt.Fprintf(f, "%q", s.shown())
	default:
		fmt.Fprint(f, s.shown())
	}
}

// MarshalJSON writes "[REDACTED]" or "".
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + s.shown() + `"`), nil }

// MarshalText writes [REDACTED] or nothing.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.shown()), nil }

// LogValue keeps the key out of slog output.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.shown()) }

// redactor removes known secrets from text quoted from elsewhere (server
// error bodies, transport errors).
type redactor []string

func (r redactor) apply(s string) string {
	for _, k := range r {
		if len(k) >= 4 { // a 1-3 byte "key" would shred ordinary text
			s = strings.ReplaceAll(s, k, redacted)
		}
	}
	return s
}
