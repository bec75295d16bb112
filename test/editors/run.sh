#!/usr/bin/env bash
# Runs the editor client tests against the real `mrpvm lsp`:
#   1. headless Neovim tests of editors/nvim (test/editors/nvim/*_spec.lua)
#      on the system's Neovim (Debian's 0.7 on CI, installed with apt-get
#      when missing) and again on Debian trixie's Neovim 0.10 (see
#      install_nvim_new below; MRPVM_NVIM_NEW=0 skips it),
#   2. the VS Code extension: npm ci, type check, unit tests, the
#      protocol-level end-to-end tests (vscode-languageserver-protocol),
#      and a .vsix built with esbuild and vsce that must package without
#      warnings.
# Exits nonzero when any part fails. Usage: test/editors/run.sh [nvim|vscode]...
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

# install_nvim_new prints the path of a Neovim 0.10+ to run the specs on.
# Debian bookworm ships 0.7; trixie ships 0.10, built against trixie's
# glibc. Its packages (with that glibc) are fetched with apt-get download
# through a private package list, unpacked into a cache folder and never
# installed into the system; nvim runs through trixie's dynamic loader with
# --library-path, so the server it starts still uses the system's own
# libraries. The unpacked tree is reused while it runs.
# debian_mirror prints the first main Debian archive URI of this system's
# apt sources (deb822 .sources files or the one-line sources.list format).
debian_mirror() {
	local uri
	uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1)
	[ -n "$uri" ] && echo "$uri"
}

install_nvim_new() {
	local cache=${MRPVM_NVIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mrpvm-editors/nvim-trixie}
	local lib=$cache/root/usr/lib/x86_64-linux-gnu
	local wrapper=$cache/nvim
	if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
		echo "$wrapper"
		return 0
	fi
	if [ "$(uname -m)" != x86_64 ] || ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
		loud "cannot fetch Neovim 0.10: that needs apt-get as root on x86_64 (MRPVM_NVIM_NEW=0 skips it)"
		return 1
	fi
	say "fetching Neovim 0.10 from Debian trixie into $cache" >&2
	rm -rf "$cache"
	mkdir -p "$cache/lists/partial" "$cache/debs" "$cache/root"
	# The archive is the one this system's own apt sources name, with the
	# suite swapped for trixie.
	local mirror
	mirror=$(debian_mirror) || { loud "cannot fetch Neovim 0.10: no Debian archive in this system's apt sources"; return 1; }
	echo "deb $mirror trixie main" >"$cache/sources.list"
	local apt=(-q -o Dir::Etc::sourcelist="$cache/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$cache/lists"
		-o Dir::Cache::archives="$cache/debs" -o APT::Sandbox::User=root -o Acquire::Languages=none
		-o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false
		-o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false
		-o Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false)
	apt-get "${apt[@]}" update >"$cache/apt.log" 2>&1 || { cat "$cache/apt.log" >&2; return 1; }
	local p
	(
		cd "$cache/debs" || exit 1
		for p in neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 libmsgpack-c2 libtree-sitter0.22 \
			libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv; do
			apt-get "${apt[@]}" download "$p/trixie" || exit 1
		done
	) >>"$cache/apt.log" 2>&1 || { cat "$cache/apt.log" >&2; return 1; }
	for p in "$cache"/debs/*.deb; do dpkg -x "$p" "$cache/root" || return 1; done
	printf '%s\n' '#!/bin/sh' \
		"# Debian trixie's Neovim through trixie's loader (see test/editors/run.sh)." \
		"VIMRUNTIME='$cache/root/usr/share/nvim/runtime' exec '$lib/ld-linux-x86-64.so.2' --library-path '$lib' '$cache/root/usr/bin/nvim' \"\$@\"" >"$wrapper"
	chmod +x "$wrapper"
	"$wrapper" --version >/dev/null 2>&1 || { echo "the unpacked Neovim does not run" >&2; return 1; }
	echo "$wrapper"
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
	nvims=()
	command -v nvim >/dev/null 2>&1 && nvims+=("$(command -v nvim)")
	if [ "${MRPVM_NVIM_NEW:-1}" != 0 ]; then
		if newer=$(install_nvim_new); then
			nvims+=("$newer")
		else
			loud "SKIPPING the Neovim 0.10 runs: Debian trixie's Neovim could not be fetched (see above; MRPVM_NVIM_NEW=0 skips it)"
		fi
	fi
	for nv in ${nvims[@]+"${nvims[@]}"}; do
		ver=$("$nv" --version | head -1)
		say "neovim: $ver ($nv)"
		ver=${ver#NVIM }
		for spec in test/editors/nvim/*_spec.lua; do
			name=$(basename "$spec" .lua)
			d="$tmp/nvim-$ver-$name"
			fresh_workspace "$d"
			say "nvim $ver $name"
			if MRPVM_TEST_WS="$d/ws" MRPVM_TEST_TMP="$d" MRPVM_REPO="$root" \
				XDG_DATA_HOME="$d/data" XDG_CACHE_HOME="$d/cache" XDG_STATE_HOME="$d/state" XDG_CONFIG_HOME="$d/config" \
				timeout 120 "$nv" --headless -u NONE -i NONE -n \
				--cmd "set rtp^=$root/editors/nvim" \
				-c "luafile $root/$spec" </dev/null; then
				passed+=("nvim $ver $name")
			else
				failed+=("nvim $ver $name")
				for log in "$d/server.log" "$d"/state/nvim/lsp.log "$d"/cache/nvim/lsp.log; do
					[ -s "$log" ] && { echo "--- $log (tail)"; tail -n 40 "$log"; }
				done
			fi
		done
	done
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
			say "vscode package: esbuild bundle and vsce, without warnings"
			if (cd editors/vscode && npm run -s package -- -o "$tmp/mrpvm.vsix") >"$tmp/vsce.log" 2>&1; then
				# npm's own notices about the machine's npmrc are not the package's.
				if grep -v '^npm warn' "$tmp/vsce.log" | grep -qi 'warn'; then
					cat "$tmp/vsce.log"
					failed+=("vscode package: warnings")
				elif ! python3 -m zipfile -l "$tmp/mrpvm.vsix" >"$tmp/vsix.txt" 2>&1 ||
					! grep -q 'extension/dist/extension.js' "$tmp/vsix.txt" || ! grep -q 'extension/LICENSE' "$tmp/vsix.txt" ||
					grep -q 'node_modules/' "$tmp/vsix.txt"; then
					cat "$tmp/vsix.txt"
					failed+=("vscode package: contents")
				elif ! (cd editors/vscode && node -e '
						// The bundle must load with nothing but the vscode module
						// (a stand-in whose every member is a class).
						const Module = require("module");
						const resolve = Module._resolveFilename;
						Module._resolveFilename = function (r, ...a) { return r === "vscode" ? "vscode" : resolve.call(this, r, ...a); };
						const stub = () => new Proxy(class {}, { get: (t, k) => (k in t ? t[k] : stub()) });
						require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: stub() };
						const m = require("./dist/extension.js");
						if (typeof m.activate !== "function" || typeof m.deactivate !== "function") throw new Error("no activate/deactivate");
					') >"$tmp/bundle.log" 2>&1; then
					tail -c 2000 "$tmp/bundle.log"
					failed+=("vscode package: the bundle does not load")
				else
					passed+=("vscode package ($(du -k "$tmp/mrpvm.vsix" | cut -f1) KiB .vsix)")
				fi
			else
				cat "$tmp/vsce.log"
				failed+=("vscode package")
			fi
		fi
	fi
fi

echo
for p in ${passed[@]+"${passed[@]}"}; do echo "passed: $p"; done
for f in ${failed[@]+"${failed[@]}"}; do echo "FAILED: $f"; done
echo "editors: ${#passed[@]} passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
