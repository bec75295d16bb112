// Package valsymbolic is the built-in val-plugin val-symbolic: a
// deterministic grounding check of a goal solver's answer, with no model.
//
// An answer is read as statements (prose segments ending in a citation
// group, list items, table rows), each with the sources it cites. A
// statement is supported when enough of its content terms occur in the
// evidence it cites (or, uncited, in the answer's cited evidence, else in
// all the evidence); numbers must occur verbatim. The answer must also
// carry the key terms of its intents and cover them weighed by their
// rarity in the knowledge base (an adjective right before the noun it
// describes, "a tremendous log", costs half its weight when left out, as
// does the head of a noun compound whose modifier is covered, "scripts"
// of "example scripts" on a page of "toolx examples", and a word of very
// many senses in general English, "turn" or "cut", which a page says with
// the word of its sense, "convert tabs", "power loss"; a word the
// spelling correction changed counts as asked too; a word the
// knowledge base never uses need not be mentioned and weighs as its most
// common known word; "back" in "write it back" belongs to the verb, and
// "stop" of "stop web from logging" is no key word, the gerund names the
// action, nor "mark" of "mark a route as deprecated", the participle names
// the state asked for, nor a noun that names the action again, "view" of
// "show the files in a tree view"; "Why X when Y?" is judged on X, or on
// the whole question, Y with it; a follow-up completed with its topic must have its own words covered apart
// from that topic, and one covered by its own words and some of the
// topic's need not cover the rest of the topic; a key word the answer
// says from a source with a synonym from the general lexicon, "follow"
// for "watch", counts for half of it, and a clipped word the lexicon
// does not know, "repo", is covered by the word it begins,
// "repositories"); the source it leads with must cover some of them, one cited source must cover them, the units the
// reader cut from one long section counting as one. It must lead with a
// source that has them together in one sentence (or names one of them in
// its title, or says an identifier the question names,
// "outside_workspace"); for "what is X", with a source about X (its title
// or first sentence names X, or its code declares X, or a command line it
// quotes runs X as the subcommand of the program asked with it,
// "cryptsetup luksDump", or a sentence of it gives an identifier X the
// kind the question gives it, "a hint `doc_too_large`"; the verb of the question, "used for", asks
// nothing there; a word that names the page the source stands in, "gorilla" for a section of the page titled
// "gorilla/mux", confines the question to that page, and the source must
// be about the question's other words); for a how-to, with a source
// that carries the action it asks for (the verb, a synonym or kind of it,
// or its first broader terms, from the general lexicon the retrieval
// package exposes; the source's title and path count only with the action
// itself or a close relative; a verb whose particle follows its object,
// "hook the notes up", is not checked, the phrasal verb meaning what the verb
// alone need not); for "why", with a reason or a condition ("because",
// "useful when", "you must ... before") or a caveat ("Note: ...",
// "warning: ..."). A word the spelling correction replaced by another (an English word no source holds: "office" read as
// "offici") is still the one asked, and only it covers itself; "vs" asks
// nothing; a placeholder of a command ("{{port}}") covers a number the
// question gives. A question that names a folder whose pages go by that
// name ("with gin", the pages under gin/) is answered only by sources in
// that folder or that say the name. A comparison or a choice ("X or Y:
// which should I use?") must name each item, have something on each and
// not describe two alike; each of its sources answers for its own item. A
// task that asks to see, show, list or print something, or an amount ("How
// many ..."), answered with a page's examples, needs an example that shows
// or counts ("Clone a remote repository" does not show which remotes there
// are), and an answer that names the thing to be shown (the head of the
// verb's object, "permissions" of "print a file's permissions", or of the
// form an "as" gives it) or a synonym of it. A how-to answered with a
// page's examples needs a page that acts on something the question names:
// the head of the object of an example's verb or of its description's
// verb, or the page's name (a subcommand's own words, or a compound made
// with a word asked), unless its description names a name asked and most
// of what is asked by rarity ("encrypted LUKS volumes" for "an encrypted
// LUKS partition"); a page whose examples act on another thing, however
// many of the question's words they share in other roles ("Show the open
// sockets on a remote host" for "show the hosts on my network"), is about
// another tool. A question that names something the knowledge base holds nowhere
// (a capitalized word inside a sentence, "from Obsidian Sync") must have
// nearly all of its other key words covered. The words of the functions
// and methods the answer's code calls ("q.OldestItem()") count as said.
// In a how-to, a clause naming an action the user avoids ("without
// deleting it") asks nothing but the words of it the answer says; a weak
// verb ("put" of "put two lists side by side") costs half its
// weight when left out, as does the verb of a how-to answered with
// examples, which the action check judges instead; "What's the way to
// X?" asks how to X, never what X is, and "What does X do when Y?" how X
// behaves then; the verb after a code name a definition opens with
// ("hide" of "What does --quiet hide?") and "look like" ask nothing. A part of a question that only
// states the user's situation ("An XML file is all on one line.", split
// off the question after it) asks nothing and is answered by no source;
// in "a website's certificate" the thing a page must act on is the
// certificate, not its owner; a follow-up's action ("and clear them?")
// must be said by the answer, itself or a lexicon relative. Any failure rejects the
// answer with a reason that names the statement or source, which drives
// the VM's backtracking.
package valsymbolic
