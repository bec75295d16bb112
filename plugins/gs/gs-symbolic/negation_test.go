package gssymbolic

import (
	"strings"
	"testing"
)

const viperDefaultsMD = "# Viper\n\n" +
	"### Remote Key/Value Store Support\n\nTo enable remote support in Viper, do a blank import of the `viper/remote` package:\n\n`import _ \"github.com/spf13/viper/remote\"`\n\n" +
	"Viper will read a config string retrieved from a path in a Key/Value store. These values take precedence over default values, but are overridden by configuration values retrieved from disk, flags, or environment variables.\n\n" +
	"### Establishing Defaults\n\nA good configuration system will support default values. A default value is not required for a key, but it's useful in the event that a key hasn't been set via config file, environment variable, remote configuration or flag.\n\n" +
	"Examples:\n\n```go\nviper.SetDefault(\"ContentDir\", \"content\")\n```\n"

// TestHowToTakesTheNegatedCase: a task about the case where something is
// absent ("when neither the config file nor a flag sets it") is answered
// by the passage that opens on that case ("a key hasn't been set via
// config file ... or flag"), before one that names the same things as
// present.
func TestHowToTakesTheNegatedCase(t *testing.T) {
	src := parseMD(t, "viper/README.md", viperDefaultsMD)
	remote, defaults := src.leaf(t, "Remote Key/Value Store Support"), src.leaf(t, "Establishing Defaults")
	task := "How do I give a viper key a fallback value for when neither the config file, the environment nor a flag sets it"
	md := solveMD(t, "implement", task+"?", task, []mdSource{src}, remote, defaults)
	if !strings.Contains(md, "SetDefault") {
		t.Errorf("the answer is not the defaults section:\n%s", md)
	}
	for _, tc := range []struct{ text, term string }{
		{"when neither the config file, the environment nor a flag sets it", "set"},
		{"a key hasn't been set via config file", "set"},
	} {
		if !negated(tc.text)[tc.term] {
			t.Errorf("negated(%q) = %v, want %q among them", tc.text, negated(tc.text), tc.term)
		}
	}
}
