package vm

import (
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// preferLibrary puts first, in the evidence for a question that names one
// or more of the workspace's libraries (libraryNames: "gin" of "How do I
// serve static files with gin?"), the best unit of a named library when
// the first unit comes from a library the question does not name (mux's
// "Static Files"): the question asks of the library it names, and another
// library's passage on the same words answers a different question. The
// order is kept when no unit of a named library was retrieved, when the
// first unit is from a named library or from no library at all, and for
// a question naming no library.
func (r *run) preferLibrary(query string, ev []plugin.ScoredKU) []plugin.ScoredKU {
	if len(ev) < 2 || ev[0].KU == nil || topFolder(ev[0].KU.SourceID) == "" {
		return ev
	}
	qs := text.Terms(query)
	// Only a unit in a folder the question names can be put first; when
	// no other unit is in one, the workspace's library names (a scan of
	// every source id) are not needed.
	if !slices.ContainsFunc(ev[1:], func(e plugin.ScoredKU) bool {
		return e.KU != nil && slices.ContainsFunc(text.Terms(topFolder(e.KU.SourceID)), func(t string) bool { return slices.Contains(qs, t) })
	}) {
		return ev
	}
	libs := r.libraryNames()
	if len(libs) == 0 {
		return ev
	}
	named := map[string]bool{}
	for _, t := range qs {
		if libs[t] {
			named[t] = true
		}
	}
	if len(named) == 0 {
		return ev
	}
	// of reports whether a source is in a library folder, and whether
	// that library is one the question names.
	of := func(source string) (inLib, isNamed bool) {
		for _, t := range text.Terms(topFolder(source)) {
			if libs[t] {
				inLib = true
			}
			if named[t] {
				isNamed = true
			}
		}
		return inLib, isNamed
	}
	if inLib, isNamed := of(ev[0].KU.SourceID); !inLib || isNamed {
		return ev
	}
	i := slices.IndexFunc(ev, func(e plugin.ScoredKU) bool {
		if e.KU == nil {
			return false
		}
		_, isNamed := of(e.KU.SourceID)
		return isNamed
	})
	if i <= 0 {
		return ev
	}
	r.trace.note("%s, of the library the question names, put before %s", ev[i].KU.SourceID, ev[0].KU.SourceID)
	return putFirst(ev, i, ev[i])
}

// topFolder is the top-level folder of a file source ("gin" of
// gin/docs/doc.md); "" for a source at the root or a built-in one.
func topFolder(source string) string {
	i := strings.Index(source, "/")
	if i <= 0 || strings.Contains(source[:i], "::") {
		return ""
	}
	return source[:i]
}
