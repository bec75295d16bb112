package llm

import (
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
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

// urlInText finds URLs in free text.
var urlInText = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>` + "`" + `]+`)

// RedactText returns s with the secrets a message, log line or trace might
// carry removed: every http(s) URL in it loses its user info, query values
// and fragment (as redactURL renders them), and each of secrets (API keys,
// query values of configured base URLs; those under 4 bytes are left, as
// they would shred ordinary text) is replaced by [REDACTED].
func RedactText(s string, secrets ...string) string {
	s = redactor(secrets).apply(s)
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, func(u string) string {
		if !strings.ContainsAny(u, "?#@") {
			return u
		}
		return redactURL(u)
	})
}

// Secrets lists what the resolver could put on the wire that must never be
// shown or stored: every API key it can read and the user info and query
// values of every configured base URL (settings and environment).
func (r *Resolver) Secrets() []string {
	var out []string
	add := func(vs ...string) {
		for _, v := range vs {
			if v = strings.TrimSpace(v); v != "" && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	settings := []plugin.RoleSetting{r.Settings.Default, r.Settings.Request}
	for _, s := range r.Settings.Roles {
		settings = append(settings, s)
	}
	for _, s := range r.Settings.PluginOverrides {
		settings = append(settings, s)
	}
	envs := []string{""}
	for _, s := range settings {
		add(urlSecrets(s.BaseURL)...)
		envs = append(envs, s.APIKeyEnv)
	}
	add(urlSecrets(r.getenv(EnvBaseURL))...)
	for _, e := range envs {
		if k, _, err := r.key(e); err == nil {
			add(k.Reveal())
		}
	}
	return out
}

// Secrets lists the secrets of the bridge's resolver (see
// Resolver.Secrets), for redacting what the engine records.
func (b *Bridge) Secrets() []string { return b.res.Secrets() }
