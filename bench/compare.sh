#!/usr/bin/env bash
# Runs engine-states' JMH suite and the XState peer on this machine, then prints the table:
# case, engine-states (mean, p99, B/op), XState (mean, p99, B/op), ratio.
#
#   bench/compare.sh            full suite (about 12.5 min on 2 cores)
#   bench/compare.sh --quick    quick mode (about 2.5–3 min)
#   bench/compare.sh --no-run   only print the table from the last results
#
# --no-build is passed to run.sh. The peer is installed with `npm install` in
# bench/peers/xstate when its node_modules is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

quick=0
run=1
run_args=()
for a in "$@"; do
    case "$a" in
        --quick) quick=1; run_args+=("$a") ;;
        --no-run) run=0 ;;
        *) run_args+=("$a") ;;
    esac
done
if [ "$quick" = 1 ]; then
    jmh_result="$here/jmh-result-quick.json"
    peer_result="$here/peers/xstate/xstate-result-quick.json"
    peer_args=(--quick)
else
    jmh_result="$here/jmh-result.json"
    peer_result="$here/peers/xstate/xstate-result.json"
    peer_args=()
fi

if [ "$run" = 1 ]; then
    mkdir -p "$here/target"
    echo "== JMH's own output -> bench/target/jmh-run.log" >&2
    "$here/run.sh" "${run_args[@]}" > "$here/target/jmh-run.log"
    peer="$here/peers/xstate"
    if [ ! -d "$peer/node_modules/xstate" ]; then
        echo "== installing the XState peer (npm install)" >&2
        (cd "$peer" && npm install --no-audit --no-fund)
    fi
    echo "== running the XState peer -> $peer_result" >&2
    start=$(date +%s)
    node "$peer/bench.mjs" "${peer_args[@]}" > "$peer_result"
    echo "== done in $(( $(date +%s) - start )) s" >&2
fi

echo
echo "Machine: $(nproc) cores, $(java -version 2>&1 | head -1), Node $(node --version); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
node "$here/compare.mjs" "$jmh_result" "$peer_result"
