// Package evaluation measures how well mrpvm answers questions as new users
// phrase them: it loads the question sets of questions/ (a development set
// to tune on and a held-out set never tuned on), prepares the workspaces they
// are asked of (mrpvm's own docs, tldr-pages common + linux, and the Markdown
// docs of Go libraries in testdata/golibs), ingests each into a real bbolt
// knowledge base with the offline symbolic plugins, asks every question
// through the VM the way `mrpvm ask` does (follow-up turns in one session),
// scores the answers, compares file ranking with a grep baseline and renders
// the figures as Markdown. cmd/evalreport is its command line.
package evaluation
