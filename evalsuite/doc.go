// Package evalsuite runs evaluation suites (a folder holding eval.json, the
// questions and expected answers, and story.nl, the workspace text) through
// the VM and scores answers and retrieved context.
package evalsuite
