// Command gen derives the lexicon's relation table from the WordNet 3.0
// database files. It writes the table twice: in text form
// (wordnet.tsv.gz, to read and to review) and in the compact form the
// lexicon embeds (wordnet.bin, made by lexicon.Compile from the text form;
// the lexicon's tests check that the two agree).
//
// Re-run it whenever the analyzer (plugin/text) changes its terms, since
// the table is keyed by analysed terms:
//
//	apt-get download wordnet-base && dpkg-deb -x wordnet-base_*.deb /tmp/wn
//	go run ./retrieval/lexicon/gen -dict /tmp/wn/usr/share/wordnet \
//	    -out retrieval/lexicon/wordnet.tsv.gz -bin retrieval/lexicon/wordnet.bin
//
// For every single-word lemma it reads the lemma's most frequent senses
// (those seen in WordNet's tagged corpus, at most maxSenses, at least one)
// and collects, per sense, the synset's other single-word lemmas
// (synonyms), the lemma's derivationally related forms, pertainyms and
// participles (derivations), and the lemmas of the sense's direct
// hypernyms and similar adjectives (broader terms). Lemmas and relatives are
// stored as the analyzer's terms, so lemmas sharing a stem (execute,
// execution, executable) share one row; a relative that analyses to the
// row's own term or to several terms is left out. Every row ends with the
// number of senses its lemmas have per part of speech (a "P:" group), and
// a single-word lemma without relatives has a row of that alone.
package main
