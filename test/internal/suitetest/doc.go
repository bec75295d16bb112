// Package suitetest runs one of the original MRP-VM evaluation suites
// (suiteXX/eval.json and story.nl, kept in shared/data/mrpvm-eval beside the
// checkout) through the VM on the offline symbolic path, for the tests in
// test/evaluation/suiteXX.
package suitetest
