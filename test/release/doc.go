// Package release checks the release configuration (.goreleaser.yaml at
// the repository root) without running GoReleaser: the targets it builds,
// the flags and the link-time version variable it sets, the files its
// archives carry, its checksums, and that test/run.sh cross-builds exactly
// the same targets.
package release
