package kbsearch

import (
	"errors"
	"testing"

	"github.com/mrpvm/mrpvm/retrieval"
)

func TestCheckQuery(t *testing.T) {
	for _, tc := range []struct {
		query string
		k     int
		code  string
	}{
		{"tides", 1, ""},
		{"tides", retrieval.MaxK, ""},
		{"", 10, CodeEmptyQuery},
		{" \t\n", 10, CodeEmptyQuery},
		{"tides", 0, CodeBadK},
		{"tides", retrieval.MaxK + 1, CodeBadK},
	} {
		err := CheckQuery(tc.query, tc.k)
		var e *Error
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%q k=%d: %v", tc.query, tc.k, err)
		case tc.code != "" && (!errors.As(err, &e) || e.Code != tc.code):
			t.Errorf("%q k=%d: want %s, got %v", tc.query, tc.k, tc.code, err)
		}
	}
}

func TestSourceURI(t *testing.T) {
	for _, tc := range []struct{ ws, id, want string }{
		{"/w s", "notes/a b.md", "file:///w%20s/notes/a%20b.md"},
		{"/ws", "plugin::kb-fast", "mrpvm:plugin::kb-fast"},
		{"", "a.md", "mrpvm:a.md"},
	} {
		if got := SourceURI(tc.ws, tc.id); got != tc.want {
			t.Errorf("SourceURI(%q, %q) = %q, want %q", tc.ws, tc.id, got, tc.want)
		}
	}
}
