#!/usr/bin/env bash
# compare.sh runs the benchmarks of docs/performance.md ("Two trees
# compared") on two checkouts of mrpvm in alternating rounds on the same
# machine, and prints the median of each figure per tree.
#
#   test/bench/compare.sh OLD_TREE NEW_TREE [ROUNDS] [OUT_DIR]
#
# OLD_TREE and NEW_TREE are work trees (git worktree add --detach DIR REV).
# SCIFACT_WS names the SciFact workspace (default /tmp/scifact-ws, made by
# shared/tools/mkworkspace); the shared data must sit at ../shared/data
# beside each tree, as the Go benchmarks expect. Each benchmark is found by
# its function name, so trees that keep it in another package compare too.
# Every figure of every round goes to OUT_DIR/results.txt with the load
# average when it was taken.
set -euo pipefail
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
rounds=${3:-5}
out=${4:-$(mktemp -d)}
ws=${SCIFACT_WS:-/tmp/scifact-ws}
data=$new/../shared/data/scifact
mkdir -p "$out"
res=$out/results.txt
: >"$res"

# pkgOf TREE BENCHMARK: the package folder holding func BENCHMARK.
pkgOf() { dirname "$(cd "$1" && grep -rl --include='*_test.go' "^func $2(" . | head -1)"; }

declare -A tree=([old]=$old [new]=$new)
for v in old new; do
	t=${tree[$v]}
	(cd "$t" && go build -o "$out/mrpvm-$v" ./cmd/mrpvm)
	for b in BenchmarkIngestSciFact BenchmarkColdIngestAll BenchmarkAskSciFact BenchmarkHover; do
		p=$(pkgOf "$t" $b)
		echo "$p" >"$out/$v-$b.pkg"
		(cd "$t" && go test -c -o "$out/$v-$b.test" "$p")
	done
done
(cd "$new" && go build -o "$out/lspbench" ./test/bench/lsp)

load() { cut -d' ' -f1 /proc/loadavg; }
# field KEY: the value of "KEY": in the JSON on standard input.
field() { grep "\"$1\":" | head -1 | sed 's/.*": *//; s/,$//'; }
rec() { echo "$1 $2 $3 $(load) $4" >>"$res"; } # round tree figure value

# gobench ROUND TREE BENCHMARK BENCHTIME [ENV...]: record every metric.
gobench() {
	local r=$1 v=$2 b=$3 n=$4
	shift 4
	local line
	line=$(cd "${tree[$v]}/$(cat "$out/$v-$b.pkg")" && env "$@" "$out/$v-$b.test" -test.run '^$' -test.bench "^$b\$" -test.benchtime "$n" -test.benchmem | grep "^$b" || true)
	if [ -z "$line" ]; then
		echo "compare: $v: $b did not run (skipped for want of data?)" >&2
		return
	fi
	set -- $line
	shift 2
	while [ $# -ge 2 ]; do
		rec "$r" "$v" "${b#Benchmark}:$2" "$1"
		shift 2
	done
}

one() {
	local r=$1 v=$2 bin=$out/mrpvm-$2 db=$out/kb-$2.db
	rm -f "$db"
	/usr/bin/time -f '%e %M' -o "$out/time" "$bin" ingest --workspace "$ws" --db "$db" >/dev/null 2>&1
	read -r s kb <"$out/time"
	rec "$r" "$v" cli-ingest:s "$s"
	rec "$r" "$v" cli-ingest:maxrss-MB $((kb / 1024))
	for p in kb-fast kb-balanced; do
		s=$("$bin" search --workspace "$ws" --db "$db" --plugin $p --queries "$data/queries-train.jsonl" \
			--qrels "$data/qrels-train.tsv" --json 2>/dev/null | field seconds)
		rec "$r" "$v" "search-$p:s" "$s"
	done
	rm -f "$db"
	"$out/lspbench" -bin "$bin" -ws scifact="$ws" -hovers 300 -asks 20 -saves 3 -json >"$out/lsp.txt" 2>&1
	for k in servingPeakRSSMB servingRssAnonMB coldIngestSeconds coldPeakRSSMB warmStartMs hoverP50Ms hoverP95Ms askMedianMs saveToHoverMedianMs; do
		rec "$r" "$v" "lsp:$k" "$(field $k <"$out/lsp.txt")"
	done
	gobench "$r" "$v" BenchmarkIngestSciFact 1x
	gobench "$r" "$v" BenchmarkColdIngestAll 1x MRPVM_BENCH_WS="$ws"
	gobench "$r" "$v" BenchmarkAskSciFact 1x
	gobench "$r" "$v" BenchmarkHover 300x
}

for r in $(seq "$rounds"); do
	if [ $((r % 2)) = 1 ]; then one "$r" old && one "$r" new; else one "$r" new && one "$r" old; fi
done

echo "medians over $rounds rounds (load average $(sort -n -k4 "$res" | awk '{print $4}' | head -1) to $(sort -n -k4 "$res" | awk '{print $4}' | tail -1)); all figures in $res"
printf '%-34s %12s %12s\n' figure old new
for f in $(awk '{print $3}' "$res" | awk '!seen[$0]++'); do
	med() { awk -v v="$1" -v f="$f" '$2 == v && $3 == f {print $5}' "$res" | sort -g | awk '{a[NR] = $1} END {if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
	printf '%-34s %12s %12s\n' "$f" "$(med old)" "$(med new)"
done
