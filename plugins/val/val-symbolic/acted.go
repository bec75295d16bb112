package valsymbolic

import (
	"regexp"
	"strings"

	"github.com/mrpvm/mrpvm/plugins/internal/symbolic"
	"github.com/mrpvm/mrpvm/retrieval/lexicon"
)

// actedOn are the things a page acts on in the examples an answer quotes
// from it (lines: each description and its command) and in its
// description (desc, the first sentence of the block under its title):
// the head of the object of each description's opening verb ("sockets"
// of "Show all open sockets on a remote host"), with the head of the
// phrase an "of" or an "as" adds to it ("frames" of "the number of
// frames", "timestamp" of "the build time as a Unix timestamp"). A
// description that opens with no verb ("A build tool for Lua") says what
// the page is, not what it acts on, and an object that is a clause
// ("whether a key is valid") names no thing; both add nothing.
// examples reports whether an example's description gave a thing.
func actedOn(lines []string, desc string) (things []string, examples bool) {
	for _, l := range lines {
		if strings.HasPrefix(l, "`") {
			continue
		}
		if hs := verbObject(l); len(hs) > 0 {
			things, examples = append(things, hs...), true
		}
	}
	if s := firstSentenceRE.FindString(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(desc), "> "))); s != "" {
		things = append(things, verbObject(s)...)
	}
	return things, examples
}

// firstSentenceRE matches a text's first sentence.
var firstSentenceRE = regexp.MustCompile(`^[^\n]*?(?:[.!?:](?:\s|$)|$)`)

// verbObject is the head of the object of the verb a description opens
// with (see actedOn), after a second verb joined to it ("Build and start
// a new sandbox"), or nil.
func verbObject(desc string) []string {
	desc = strings.NewReplacer("[", "", "]", "").Replace(strings.TrimLeft(desc, "-* "))
	words := strings.Fields(desc)
	if len(words) < 2 || !opensWithVerb(words[0]) {
		return nil
	}
	words = words[1:]
	if len(words) > 1 && (strings.EqualFold(words[0], "and") || strings.EqualFold(words[0], "or")) && opensWithVerb(words[1]) {
		words = words[2:]
	}
	if clauseObjectRE.MatchString(" " + strings.Join(words, " ")) {
		return nil
	}
	head, next, end := nounHead(words)
	if head == "" {
		return nil
	}
	heads := []string{head}
	if end == "of" || end == "as" {
		if h, _, _ := nounHead(next); h != "" {
			heads = append(heads, h)
		}
	}
	return heads
}

// opensWithVerb reports whether w, capitalised as a description's first
// word, is a verb in the general lexicon.
func opensWithVerb(w string) bool {
	terms := symbolic.TaskTerms(strings.ToLower(strings.Trim(w, ",.;:()")))
	if len(terms) != 1 {
		return false
	}
	return lexicon.HasVerbSense(terms[0])
}

// nounHead is the head of the noun phrase words open with, as phraseHead
// reads it, except that a word the lexicon knows mainly as another part
// of speech does not displace a head known mainly as a noun ("sockets
// open to the network" keeps "sockets"), though it stands in for one
// until a noun comes ("new" of "a new sandbox" gives way to "sandbox"),
// and an adverb in -ly is passed over ("commands interactively"). A
// number names no thing, and an aside in brackets ends the phrase.
func nounHead(words []string) (head string, next []string, end string) {
	strong := false
	next, end = phraseWords(words, ",.;:?!()\"'`", true, func(bare, term string) {
		if isNumber(term) {
			return
		}
		all, main := lexicon.PartsOfSpeech(term)
		nounish := all == 0 || main&lexicon.Noun != 0
		switch {
		case strings.HasSuffix(bare, "ly") && main&lexicon.Noun == 0:
			// an adverb
		case nounish || (all&lexicon.Noun != 0 && !strong):
			head, strong = term, nounish
		}
	})
	return head, next, end
}

// namesAny reports whether the question's words (asked) name one of
// things: the word itself, a near spelling or compound of it, or a close
// synonym either way.
func namesAny(things []string, asked map[string]bool, rar symbolic.Rarity) bool {
	for _, h := range things {
		if covered(h, asked, rar) || synonymIn(h, asked) {
			return true
		}
		for a := range asked {
			if synonymIn(a, map[string]bool{h: true}) {
				return true
			}
		}
	}
	return false
}

// titleNames reports whether a term of a page's title (titleThings)
// names a word of the question (asked) or is a compound made with one
// ("untgz" and "tgz", "svgtopng" and "svg"): a tool is often named after
// what it acts on.
func titleNames(title string, asked map[string]bool, rar symbolic.Rarity) bool {
	things := titleThings(title)
	if namesAny(things, asked, rar) {
		return true
	}
	for _, t := range things {
		for a := range asked {
			if len(a) >= minNameWord && len(t) > len(a) && (strings.HasPrefix(t, a) || strings.HasSuffix(t, a)) {
				return true
			}
		}
	}
	return false
}

// minNameWord is how many letters a word must have to be told inside a
// page's name ("ps" stands inside too many).
const minNameWord = 3

// titleThings are the terms of a page's title that name what the page is
// about: all of a one-word title ("sockprobe"), the words after the
// first of a longer one ("sandbox start" of "podx sandbox start"), whose
// first word names the program whose subcommand the page documents and is
// shared by every page of that program.
func titleThings(title string) []string {
	f := strings.Fields(title)
	if len(f) > 1 {
		f = f[1:]
	}
	return symbolic.TaskTerms(strings.Join(f, " "))
}

// possessorRE matches a possessive noun and what follows it up to the
// next word ("website's HTTPS certificate" leaves "HTTPS certificate").
var possessorRE = regexp.MustCompile(`(?i)\b[a-z][\w-]*['’]s\s+`)

// possessorFree is target without its possessive nouns: in "a website's
// certificate" the thing asked about is the certificate, and a page that
// acts on websites acts on its owner, not on it.
func possessorFree(target string) string {
	return possessorRE.ReplaceAllString(target, "")
}

// describesAsked reports whether a page's description (desc) names a
// name the question asks about (a word the general lexicon does not know:
// "LUKS", a tool's or a format's name) and most of what it asks (asked,
// weighed by rarity in the knowledge base, at least minShare of it): the
// page is about that named thing, though its examples may call what they
// act on by a word of their own ("volumes" for the "encrypted LUKS
// partition" asked). English words alone do not suffice: a page shares
// them with the question in other roles ("Show sockets on a local or
// remote host" for "show the hosts on my local network").
func describesAsked(desc string, asked map[string]bool, rar symbolic.Rarity, minShare float64) bool {
	said := symbolic.TermSet(desc)
	got, total, named := 0.0, 0.0, false
	for a := range asked {
		if filler[a] || !rar.Known(a) {
			continue
		}
		w := rar.Weight(a)
		total += w
		if covered(a, said, rar) {
			got += w
			if all, _ := lexicon.PartsOfSpeech(a); all == 0 {
				named = true
			}
		}
	}
	return named && total > 0 && got >= minShare*total
}
