#!/usr/bin/env bash
# Builds engine-states' JMH benchmarks and runs the whole suite: cases A–E (each with tags and
# with tags(false)), T (one transition, plain and ECS faces) and the D scaling (1,000, 10,000
# and 100,000 machines), with -prof gc for the bytes allocated per operation.
#
#   bench/run.sh            full suite: each benchmark (AverageTime: the mean, -prof gc: B/op)
#                           and its ...Timed twin (every operation timed: p50, p99),
#                           3 x 1 s warm-up and 4 x 1 s measurement each (about 12 min on 2 cores)
#                           -> bench/jmh-result.json
#   bench/run.sh --quick    the ...Timed twins only (mean, p50, p99 and B/op from one fork),
#                           1 x 0.7 s warm-up and 1 x 0.8 s measurement (under 3 min)
#                           -> bench/jmh-result-quick.json
#
# Options: --no-build (use the jar already built); anything else is passed to JMH instead of
# the default selection, e.g.
#   bench/run.sh Cycle1sBench -p machines=1000
#   bench/run.sh --quick 'Cycle1sBench.stepTimed' -p phase=inPhase
# MVN_ARGS adds to the Maven command line (e.g. MVN_ARGS=-o for offline).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

quick=0
build=1
jmh_args=()
for a in "$@"; do
    case "$a" in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        *) jmh_args+=("$a") ;;
    esac
done

if [ "$build" = 1 ]; then
    echo "== building (mvn -pl bench -am package)" >&2
    (cd "$root" && mvn -q ${MVN_ARGS:-} -pl bench -am package -Dmaven.test.skip=true)
fi

jar="$here/target/benchmarks.jar"
# The default selection is issue 6's suite; the polled cases (Polled*Bench) and the builder
# cases (Builder*Bench), each with their gdx-ai peer, run with bench/compare-polled.sh and
# bench/compare-builder.sh; streaming (StreamBench) on its own: bench/run.sh StreamBench; the internal
# queue and the compiler (InternalQueueBench, ChartCompileBench) on their own too.
if [ "$quick" = 1 ]; then
    result="$here/jmh-result-quick.json"
    mode=(-wi 1 -w 700ms -i 1 -r 800ms)
    if [ "${#jmh_args[@]}" = 0 ]; then
        jmh_args=('Timed$' -e '\.(Polled|Builder|Stream|Rewind)')
    fi
else
    result="$here/jmh-result.json"
    mode=(-wi 3 -w 1s -i 4 -r 1s)
    if [ "${#jmh_args[@]}" = 0 ]; then
        jmh_args=(-e '\.(Polled|Builder|Stream|InternalQueue|ChartCompile|Rewind)')
    fi
fi

echo "== running JMH -> $result" >&2
start=$(date +%s)
java -jar "$jar" "${mode[@]}" -f 1 -tu ns -prof gc -rf json -rff "$result" ${jmh_args[@]+"${jmh_args[@]}"}
echo "== done in $(( $(date +%s) - start )) s; results in $result" >&2
