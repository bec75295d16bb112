#!/usr/bin/env bash
# Runs every test of the repository: go vet, then the unit and end-to-end
# suites. This is the command README.md gives and .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
go vet ./...
go test -count=1 -timeout 15m ./...
