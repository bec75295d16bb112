#!/usr/bin/env bash
# Measures the Neovim client on the tldr-pages workspace (pages/common,
# 4,612 Markdown files): time from opening a file to the first :MrpAsk
# answer, cold (new knowledge base) and warm (current knowledge base, new
# server). Not part of CI. Usage: test/editors/measure.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=${1:-3}
data=${TLDR_TARBALL:-/work/shared/data/tldr-pages.tar.gz}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mrpvm-measure.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/mrpvm" ./cmd/mrpvm
tar xzf "$data" -C "$tmp"
ws="$tmp/pages/common"
mkdir -p "$ws/.mrpvm"
echo "workspace: $(find "$ws" -name '*.md' | wc -l) Markdown files; nvim: $(nvim --version | head -1); $(nproc) cores"

run() { # mode db
	MRPVM_BIN="$tmp/mrpvm" MRPVM_MEASURE_WS="$ws" MRPVM_MEASURE_DB="$2" MRPVM_MEASURE_MODE="$1" \
		XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" \
		nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$root/editors/nvim" \
		-c "luafile $root/test/editors/nvim/measure.lua" </dev/null 2>/dev/null | grep '^{'
}
for i in $(seq 1 "$runs"); do
	db="$tmp/kb-$i.db"
	run cold "$db"
	run warm "$db"
done
