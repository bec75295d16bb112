#!/usr/bin/env bash
# Runs every test of the repository: go vet, cross-builds for the other
# platforms editors run on, the unit and end-to-end Go
# suites, then the editor clients (headless Neovim and the VS Code
# extension against the real language server). This is the command
# README.md gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
# The product must keep building where its editors run, not only here.
for target in windows/amd64 darwin/arm64; do
	GOOS=${target%/*} GOARCH=${target#*/} go build -o /dev/null ./...
done
go test -count=1 -timeout 15m ./...
bash test/editors/run.sh
