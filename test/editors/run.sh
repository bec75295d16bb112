#!/usr/bin/env bash
# Runs the editor client tests against the real `mrpvm lsp`:
#   1. headless Neovim tests of editors/nvim (test/editors/nvim/*_spec.lua),
#   2. the VS Code extension: npm ci, compile, unit tests, and the
#      protocol-level end-to-end tests (vscode-languageserver-protocol).
# Installs neovim with apt-get when it is missing. Exits nonzero when any
# part fails. Usage: test/editors/run.sh [nvim|vscode]...
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(nvim vscode)
want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mrpvm-editors.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=()
passed=()

say() { printf '== %s\n' "$*"; }
loud() { printf '\n!!!!!!!!\n!!!!!!!! %s\n!!!!!!!!\n\n' "$*" >&2; }

say "building mrpvm"
go build -o "$tmp/mrpvm" ./cmd/mrpvm
export MRPVM_BIN="$tmp/mrpvm"

# fresh_workspace DIR: a copy of test/editors/workspace with the .mrpvm
# root marker, so every run starts from an empty knowledge base.
fresh_workspace() {
	mkdir -p "$1"
	cp -r test/editors/workspace "$1/ws"
	mkdir -p "$1/ws/.mrpvm" "$1/data" "$1/cache" "$1/state" "$1/config"
}

if want nvim; then
	if ! command -v nvim >/dev/null 2>&1; then
		if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
			say "installing neovim (apt-get)"
			if ! apt-get install -y -q neovim >"$tmp/apt.log" 2>&1; then
				apt-get update -q >>"$tmp/apt.log" 2>&1 || true
				apt-get install -y -q neovim >>"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; failed+=("nvim: apt-get install neovim"); }
			fi
		else
			loud "SKIPPING the Neovim tests: nvim is not installed and apt-get cannot run here (not root or no apt). Install neovim >= 0.7 to run them."
		fi
	fi
	if command -v nvim >/dev/null 2>&1; then
		say "neovim: $(nvim --version | head -1)"
		for spec in test/editors/nvim/*_spec.lua; do
			name=$(basename "$spec" .lua)
			d="$tmp/nvim-$name"
			fresh_workspace "$d"
			say "nvim $name"
			if MRPVM_TEST_WS="$d/ws" MRPVM_TEST_TMP="$d" \
				XDG_DATA_HOME="$d/data" XDG_CACHE_HOME="$d/cache" XDG_STATE_HOME="$d/state" XDG_CONFIG_HOME="$d/config" \
				timeout 120 nvim --headless -u NONE -i NONE -n \
				--cmd "set rtp^=$root/editors/nvim" \
				-c "luafile $root/$spec" </dev/null; then
				passed+=("nvim $name")
			else
				failed+=("nvim $name")
				for log in "$d/server.log" "$d"/state/nvim/lsp.log "$d"/cache/nvim/lsp.log; do
					[ -s "$log" ] && { echo "--- $log (tail)"; tail -n 40 "$log"; }
				done
			fi
		done
	fi
fi

if want vscode; then
	if ! command -v npm >/dev/null 2>&1; then
		loud "npm is not installed: the VS Code extension cannot be built or tested"
		failed+=("vscode: npm missing")
	else
		say "vscode: node $(node --version), npm $(npm --version 2>/dev/null)"
		# (errexit does not apply inside a tested subshell: chain with &&.)
		(cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error && npm run -s compile) &&
			passed+=("vscode compile") || failed+=("vscode compile")
		if [[ " ${failed[*]-} " != *"vscode compile"* ]]; then
			say "vscode unit tests"
			(cd editors/vscode && npm test -s) && passed+=("vscode unit") || failed+=("vscode unit")
			say "vscode protocol end-to-end tests"
			(cd editors/vscode && TMPDIR="$tmp" npm run -s test:e2e) && passed+=("vscode e2e") || failed+=("vscode e2e")
		fi
	fi
fi

echo
for p in ${passed[@]+"${passed[@]}"}; do echo "passed: $p"; done
for f in ${failed[@]+"${failed[@]}"}; do echo "FAILED: $f"; done
echo "editors: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
