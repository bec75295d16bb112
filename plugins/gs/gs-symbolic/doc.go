// Package gssymbolic is the built-in gs-plugin gs-symbolic: a
// deterministic, grounded Markdown answer assembled from the evidence, with
// no LLM. The answer's shape follows the intent's act (definition,
// explanation along a proof chain, comparison, numbered procedure, list),
// every statement is copied from a KU and cited ([n] -> KU title and
// source:line), gs-plugin guidance ("use bullets", "be brief", "one word")
// is honoured, and evidence that does not answer gives no-context.
package gssymbolic
