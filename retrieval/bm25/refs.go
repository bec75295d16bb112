package bm25

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mrpvm/mrpvm/plugin"
	"github.com/mrpvm/mrpvm/plugin/text"
)

// References: how many other sources of the workspace use a source's name
// as a command in their code. A command many pages run in their examples
// or point to in their "See also" lines is the one writers treat as the
// standard tool for its job: chmod, tail and ln are used in many tldr
// pages, a niche tool in none. Search uses the count as a prior on a
// source's score (an in-degree, the first step of PageRank), learned from
// the workspace itself. Links are not counted: in a documentation set they
// are navigation (an index or a "next" line links to every page), so the
// pages linked most are not the ones that answer most.
//
// Keys, beside the index's own (see record.go):
//
//	b.r<src>    the names the source refers to, sorted, newline-separated
//	b.n<name>   how many sources refer to name, a uvarint
//
// A source is re-counted whenever it is indexed, so a save that re-ingests
// one file updates the counts of the names it gained or lost.
var (
	prefixRefs     = []byte("b.r")
	prefixReferred = []byte("b.n")
)

// maxNameLen bounds a referenced name; longer words are not names.
const maxNameLen = 64

// SourceName is the name other sources use for a source: its file name
// without the extension ("common/tail.md" is tail), or the id of a
// built-in plugin source ("plugin::kb-fast" is kb-fast), in lower case.
func SourceName(sourceID string) string {
	if _, id, ok := strings.Cut(sourceID, "::"); ok {
		return strings.ToLower(id)
	}
	base := path.Base(sourceID)
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return strings.ToLower(base)
}

// shellWrappers run the command that follows them, so the word after one
// is in command position ("sudo chmod ...").
var shellWrappers = map[string]bool{"sudo": true, "doas": true, "env": true, "nohup": true, "exec": true}

// References lists the distinct names the Markdown text of source self
// uses as commands: the first word of an inline code span or of a fenced
// code line, and of each part of a pipeline or command list in them. A name of self's own family (self
// itself, a name self extends as "name-sub", or one extending self) is not
// a reference: a page and its subcommand pages do not vote for each other.
func References(self string, src []byte) []string {
	self = strings.ToLower(self)
	seen := map[string]bool{}
	add := func(n string) {
		n = strings.ToLower(n)
		if !validName(n) || n == self || strings.HasPrefix(self, n+"-") || strings.HasPrefix(n, self+"-") {
			return
		}
		seen[n] = true
	}
	var fences text.Fences
	for line := range bytes.Lines(src) {
		l := strings.TrimSpace(string(line))
		switch fences.Read(l) {
		case text.Inside:
			commands(l, add)
			continue
		case text.Opening, text.Closing:
			continue
		}
		for rest := l; ; {
			i := strings.IndexByte(rest, '`')
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i+1:], '`')
			if j < 0 {
				break
			}
			commands(rest[i+1:i+1+j], add)
			rest = rest[i+2+j:]
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// commands calls add with the word in command position of each part of a
// shell line: its start and what follows |, ||, &&, ; and $(, past
// environment assignments and wrappers such as sudo.
func commands(code string, add func(string)) {
	for _, sep := range []string{"||", "&&", "$(", ";"} {
		code = strings.ReplaceAll(code, sep, "|")
	}
	for part := range strings.SplitSeq(code, "|") {
		words := strings.Fields(part)
		for len(words) > 0 && (shellWrappers[words[0]] || strings.Contains(words[0], "=")) {
			words = words[1:]
		}
		if len(words) > 0 {
			add(strings.TrimRight(words[0], ")"))
		}
	}
}

// validName reports whether a word can name a source: letters, digits and
// ". _ + -", starting with a letter or digit.
func validName(n string) bool {
	if n == "" || len(n) > maxNameLen {
		return false
	}
	for i, r := range n {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		case i > 0 && strings.ContainsRune("._+-", r):
		default:
			return false
		}
	}
	return true
}

// SetReferences records that source src refers to names (References'
// result; none when the source is removed), updating the counts of the
// names it gained or lost since it was last recorded.
func SetReferences(kv plugin.KV, src string, names []string) error {
	k := key(prefixRefs, src)
	var old []string
	if v := kv.Get(k); len(v) > 0 {
		old = strings.Split(string(v), "\n")
	}
	if slices.Equal(old, names) {
		return nil
	}
	for _, n := range old {
		if !slices.Contains(names, n) {
			if err := addReferrers(kv, n, -1); err != nil {
				return err
			}
		}
	}
	for _, n := range names {
		if !slices.Contains(old, n) {
			if err := addReferrers(kv, n, 1); err != nil {
				return err
			}
		}
	}
	if len(names) == 0 {
		return kv.Delete(k)
	}
	return kv.Put(k, []byte(strings.Join(names, "\n")))
}

func addReferrers(kv plugin.KV, name string, d int) error {
	k := key(prefixReferred, name)
	n, err := Referrers(kv, name)
	if err != nil {
		return err
	}
	n += d
	if n <= 0 {
		return kv.Delete(k)
	}
	return kv.Put(k, binary.AppendUvarint(nil, uint64(n)))
}

// Referrers is the number of sources that refer to name.
func Referrers(kv plugin.KV, name string) (int, error) {
	v := kv.Get(key(prefixReferred, name))
	if v == nil {
		return 0, nil
	}
	n, w := binary.Uvarint(v)
	if w <= 0 || w != len(v) {
		return 0, fmt.Errorf("%w: referrer count of %q", ErrCorrupt, name)
	}
	return int(n), nil
}
