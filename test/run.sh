#!/usr/bin/env bash
# Runs every test of the repository: go vet, the unit and end-to-end Go
# suites, then the editor clients (headless Neovim and the VS Code
# extension against the real language server). This is the command
# README.md gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
go test -count=1 -timeout 15m ./...
bash test/editors/run.sh
