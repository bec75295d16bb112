// Command lspbench measures the mrpvm language server the way an editor
// uses it: it starts the real `mrpvm lsp` binary, talks LSP to it over a
// pipe (test/internal/lspclient) and prints, for each workspace given,
// these figures against their targets:
//
//   - first hover answered while the cold ingest runs (target ≤100 ms), and
//     hovers every 20 ms until the ingest ends (p50/p95/max)
//   - cold ingest time and the server's peak RSS during it
//   - warm start of the unchanged workspace: process start to the end of
//     the ingest $/progress (target ≤300 ms)
//   - hover latency p50/p95/p99 over words of the workspace's pages (p95 ≤10 ms)
//   - a saved file visible to hover and to mrpvm.ask (target ≤50 ms)
//   - mrpvm.ask latency on the symbolic path (gs-symbolic pinned, no model; median ≤30 ms)
//   - peak RSS (VmHWM) of the warm server after serving all of the above (≤120 MB),
//     and after each phase (warm start, hovers, saves, asks) to tell which one raised it
//
// Usage:
//
//	go run ./test/bench/lsp -ws tldr=/tmp/tldr/pages/common -ws scifact=/tmp/scifact/ws
//
// Flags: -bin (an mrpvm binary; default: build ./cmd/mrpvm), -profile DIR
// (heap and CPU profiles of the warm server), -keep, -hovers N,
// -asks N, -saves N, -questions FILE (one question a line; default:
// generated from the pages), -scifact-queries FILE (SciFact
// queries-train.jsonl: its claims become the questions of a workspace named
// scifact), -json (print the figures as JSON too).
package main
