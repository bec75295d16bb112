package main

import (
	"maps"
	"strings"
	"testing"
)

// TestParseStageFlags: --pin and --prefer take trimmed stage=plugin-id
// values; --prefer stage= clears a preference, --pin needs an id, and a
// malformed value names its flag and an example.
func TestParseStageFlags(t *testing.T) {
	pins, err := parsePins([]string{" gs = gs-symbolic", "kb=kb-fast"})
	if want := map[string]string{"gs": "gs-symbolic", "kb": "kb-fast"}; err != nil || !maps.Equal(pins, want) {
		t.Errorf("parsePins = %v, %v; want %v", pins, err, want)
	}
	prefs, err := parsePrefers([]string{"kb=", "gs=gs-llm-fast"})
	if want := map[string]string{"kb": "", "gs": "gs-llm-fast"}; err != nil || !maps.Equal(prefs, want) {
		t.Errorf("parsePrefers = %v, %v; want %v", prefs, err, want)
	}
	for _, tc := range []struct {
		parse func([]string) (map[string]string, error)
		value string
		msg   string
	}{
		{parsePins, "gs", "--pin \"gs\": want stage=plugin-id, for example --pin gs=gs-symbolic"},
		{parsePins, "gs=", "--pin \"gs=\""},
		{parsePins, " =gs-symbolic", "--pin"},
		{parsePrefers, "kb", "--prefer \"kb\": want stage=plugin-id, for example --prefer kb=kb-thinkingdb"},
		{parsePrefers, "=kb-fast", "--prefer"},
	} {
		if _, err := tc.parse([]string{tc.value}); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v, want an error containing %q", tc.value, err, tc.msg)
		}
	}
}
