# What bench/compare-polled.sh and bench/compare-builder.sh share: one JMH run of a style's
# benchmarks beside their gdx-ai peer (a library, so it runs in the same harness: same JVM flags,
# same timer, same -prof gc; see bench/README.md), then the style's table. Sourced, not run: the
# script sourcing it sets
#
#   name       the style: results go to bench/jmh-result-$name[-quick].json, JMH's own output to
#              bench/target/$name-run.log
#   selection  the JMH regex of its benchmarks (with the busy-loop control)
#   params     JMH arguments of its own (e.g. -p kinds=1,4), possibly none
#   table      the Node script that prints its table from the JSON results
#
# and hands on its arguments: --quick (2 x 0.5 s warm-up, 3 x 0.5 s measurement instead of
# 3 x 1 s and 4 x 1 s), --no-build (use bench/target/benchmarks.jar as built), --no-run (only
# print the table from the last results); anything else goes to JMH. MVN_ARGS adds to the Maven
# command line (e.g. MVN_ARGS=-o). The build is the reactor's `package`: it installs nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"

quick=0
build=1
run=1
jmh_args=()
for a in "$@"; do
    case "$a" in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        --no-run) run=0; build=0 ;;
        *) jmh_args+=("$a") ;;
    esac
done
if [ "$quick" = 1 ]; then
    result="$here/jmh-result-$name-quick.json"
    mode=(-wi 2 -w 500ms -i 3 -r 500ms)
else
    result="$here/jmh-result-$name.json"
    mode=(-wi 3 -w 1s -i 4 -r 1s)
fi
log="$here/target/$name-run.log"

if [ "$build" = 1 ]; then
    echo "== building (mvn -pl bench -am package)" >&2
    (cd "$root" && mvn -q ${MVN_ARGS:-} -pl bench -am package -Dmaven.test.skip=true)
fi

if [ "$run" = 1 ]; then
    mkdir -p "$here/target"
    jar="$here/target/benchmarks.jar"
    [ -f "$jar" ] || { echo "missing $jar: run without --no-build" >&2; exit 1; }
    echo "== JMH's own output -> $log" >&2
    echo "== load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    start=$(date +%s)
    tries=0
    while :; do
        status=0
        java -jar "$jar" "${mode[@]}" -f 1 -tu ns -prof gc -rf json -rff "$result" ${params[@]+"${params[@]}"} \
            ${jmh_args[@]+"${jmh_args[@]}"} "$selection" > "$log" 2>&1 || status=$?
        # JMH runs one suite at a time on a machine: wait for another engineer's run to end
        if grep -q 'Unable to acquire the JMH lock' "$log" && [ "$tries" -lt 60 ]; then
            tries=$((tries + 1))
            echo "   another JMH holds the lock; waiting 10 s" >&2
            sleep 10
            continue
        fi
        break
    done
    echo "== JMH done in $(( $(date +%s) - start )) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    if [ "$status" != 0 ] || grep -q '<failure>' "$log"; then
        echo "== JMH exited with status $status, or a benchmark failed: see $log" >&2
    fi
fi

echo
echo "Machine: $(nproc) cores, $(java -version 2>&1 | head -1); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Tree: $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')$( (cd "$root" && git status --porcelain --untracked-files=no 2>/dev/null | grep -q .) && echo ' (with uncommitted changes)')"
echo
node "$table" "$result"
