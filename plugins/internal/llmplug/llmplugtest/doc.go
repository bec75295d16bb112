// Package llmplugtest wires the LLM plugins' tests to a local llmtest
// server through the real bridge and meter: the run context a plugin gets
// is the one the VM would build, with the stage's metered plugin.LLM.
package llmplugtest
