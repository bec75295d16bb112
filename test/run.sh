#!/usr/bin/env bash
# Runs every test of the repository: go vet, cross-builds for the six
# release targets, the unit and end-to-end Go
# suites, then the editor clients (headless Neovim and the VS Code
# extension against the real language server). This is the command
# README.md gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
# The product must keep building on every release target
# (.goreleaser.yaml; test/release checks the two lists agree).
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
	CGO_ENABLED=0 GOOS=${target%/*} GOARCH=${target#*/} go build -trimpath -o /dev/null ./cmd/mrpvm
done
go test -count=1 -timeout 15m ./...
bash test/editors/run.sh
