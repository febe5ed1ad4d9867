#!/usr/bin/env bash
# Measures engine-states on its patched Dominion against the same engine without the patches:
# builds two benchmark jars from this tree, the patched engine-states-dominion (the default
# build) and upstream 0.9.0's code, relocated the same way and without the bug fixes (Maven
# profile -Pupstream-api: of the patches, only 0010, 0012, 0013 and 0019, which add the EntityRepository.contains,
# watch, watchedJoins, modifyEntity(prepared, entity, added) and IntEntity.chunkNumber() that engine-states calls; 0013 also
# brings its last-target check, so tag moves cost alike on both), then runs cases A–E and T on both jars in turn, upstream then patched for each
# benchmark and parameter set, so that whatever else the machine is doing hits both alike.
# Prints one Markdown table: case, upstream (mean, p99, B/op), patched (the same), and the
# ratios patched / upstream of the means and of the p99s.
#
#   bench/compare-dominion.sh            quick: the ...Timed benchmarks (mean, p99 and B/op
#                                        from one fork), 1 x 0.7 s warm-up, 1 x 0.8 s measurement
#                                        (2–3 min on 2 cores: the two builds 15–30 s, JMH 2–2.5 min)
#   bench/compare-dominion.sh --full     run.sh's full settings: each benchmark (mean, B/op) and
#                                        its ...Timed twin (p99), 3 x 1 s warm-up, 4 x 1 s
#                                        measurement (about 15 min)
#   bench/compare-dominion.sh --no-build     use the two jars already built
#   bench/compare-dominion.sh --no-run       only print the table from the last results
#   bench/compare-dominion.sh --scaling      add D at 10,000 and 100,000 machines
#   bench/compare-dominion.sh 'D:|E:'        run only the cases whose label or benchmark
#                                            matches this extended regex (grep -E)
#   bench/compare-dominion.sh --tree DIR     build and run in another checkout instead of this
#                                            one, e.g. an older commit: git worktree add DIR <commit>
#
# Jars: bench/target/benchmarks-patched.jar and bench/target/benchmarks-upstream.jar (the
# build leaves bench/target/benchmarks.jar as the patched one). Results:
# bench/target/dominion-upstream.json and bench/target/dominion-patched.json (JMH's JSON, every
# run's records in run order); JMH's own output: bench/target/dominion-run.log.
# The upstream build needs engine-states to compile against that Dominion: if engine-states
# calls a method that only another patch adds, -Pupstream-api cannot build that tree (measure an
# older commit with --tree).
# The plain-object transitions (TransitionBench) and the busy loop touch no Dominion: they are
# controls, and their ratios show what the machine alone changed between the two runs.
# MVN_ARGS adds to the Maven command line (e.g. MVN_ARGS=-o for offline). Never `mvn install`:
# both builds stay in this tree.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
self="$here" # this script's own folder (format.mjs), whatever --tree says
root="$(dirname "$here")"

full=0
build=1
run=1
scaling=0
filter=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        --quick) full=0 ;;
        --full) full=1 ;;
        --no-build) build=0 ;;
        --no-run) run=0; build=0 ;;
        --scaling) scaling=1 ;;
        --tree) shift; root="$(cd "${1:?--tree needs a directory}" && pwd)"; here="$root/bench" ;;
        -*) echo "unknown option: $1" >&2; exit 2 ;;
        *) filter="$1" ;;
    esac
    shift
done
target="$here/target"

patched_jar="$target/benchmarks-patched.jar"
upstream_jar="$target/benchmarks-upstream.jar"
patched_json="$target/dominion-patched.json"
upstream_json="$target/dominion-upstream.json"
log="$target/dominion-run.log"

# label | benchmark (class.method, without Timed) | JMH parameters
cases=(
    "control: a busy loop of ~50 ns (no Dominion)|NoiseFloorBench.busyLoop|"
    "A: 1,000 parked, tags|ParkedBench.step|-p tags=true"
    "A: 1,000 parked, tags(false)|ParkedBench.step|-p tags=false"
    "B: 1,000 in a 1e9 s wait, tags|LongWaitBench.step|-p tags=true"
    "B: 1,000 in a 1e9 s wait, tags(false)|LongWaitBench.step|-p tags=false"
    "C: 100 every 5 s, in phase, tags|Cycle5sBench.step|-p tags=true -p phase=inPhase"
    "C: 100 every 5 s, in phase, tags(false)|Cycle5sBench.step|-p tags=false -p phase=inPhase"
    "C: 100 every 5 s, staggered, tags|Cycle5sBench.step|-p tags=true -p phase=staggered"
    "C: 100 every 5 s, staggered, tags(false)|Cycle5sBench.step|-p tags=false -p phase=staggered"
    "D: 1,000 once a second, in phase, tags|Cycle1sBench.step|-p tags=true -p phase=inPhase -p machines=1000"
    "D: 1,000 once a second, in phase, tags(false)|Cycle1sBench.step|-p tags=false -p phase=inPhase -p machines=1000"
    "D: 1,000 once a second, staggered, tags|Cycle1sBench.step|-p tags=true -p phase=staggered -p machines=1000"
    "D: 1,000 once a second, staggered, tags(false)|Cycle1sBench.step|-p tags=false -p phase=staggered -p machines=1000"
    "E: 10,000 once a second, staggered, tags|Cycle1s10kBench.step|-p tags=true"
    "E: 10,000 once a second, staggered, tags(false)|Cycle1s10kBench.step|-p tags=false"
)
if [ "$scaling" = 1 ]; then
    for n in 10000 100000; do
        for phase in inPhase staggered; do
            for tags in true false; do
                label="D scaling: $([ "$n" = 10000 ] && echo 10,000 || echo 100,000), $([ "$phase" = inPhase ] && echo "in phase" || echo staggered), $([ "$tags" = true ] && echo tags || echo "tags(false)")"
                cases+=("$label|Cycle1sBench.step|-p tags=$tags -p phase=$phase -p machines=$n")
            done
        done
    done
fi
for t in "flatToggle:T: flat on/off" "guardTurn:T: guard TURN (3 levels)" \
         "guardAlarmThenCalm:T: guard ALARM+CALM (2 transitions, deep history)" "parallelThreeRegions:T: parallel, 3 regions"; do
    method="${t%%:*}"
    label="${t#*:}"
    cases+=("$label, ECS tags|EcsTransitionBench.$method|-p tags=true")
    cases+=("$label, ECS tags(false)|EcsTransitionBench.$method|-p tags=false")
    cases+=("$label, plain (no Dominion)|TransitionBench.$method|")
done
if [ -n "$filter" ]; then
    selected=()
    for c in "${cases[@]}"; do
        IFS='|' read -r label bench _ <<< "$c"
        if printf '%s\n%s\n' "$label" "$bench" | grep -Eq -- "$filter"; then
            selected+=("$c")
        fi
    done
    cases=(${selected[@]+"${selected[@]}"})
    if [ "${#cases[@]}" = 0 ]; then
        echo "no case matches $filter" >&2
        exit 2
    fi
fi

if [ "$full" = 1 ]; then
    mode=(-wi 3 -w 1s -i 4 -r 1s)
else
    mode=(-wi 1 -w 700ms -i 1 -r 800ms)
fi

# The engine a jar holds: upstream's class index uses sun.misc.Unsafe (an off-heap table),
# patch 0005's a ClassValue.
engine_of() {
    if unzip -p "$1" dev/enginestates/dominion/system/ClassIndex.class | grep -aq 'sun/misc/Unsafe'; then
        echo upstream
    else
        echo patched
    fi
}

build_jar() { # $1: patched|upstream, $2: destination jar, $3...: extra Maven arguments
    local which="$1" dest="$2"
    shift 2
    echo "== building the $which jar (mvn -pl bench -am package $*)" >&2
    local start
    start=$(date +%s)
    # engine-states-dominion is cleaned first, so no class of the other build stays in its jar
    if ! (cd "$root" && mvn -q -B ${MVN_ARGS:-} -pl engine-states-dominion clean \
            && mvn -q -B ${MVN_ARGS:-} -pl bench -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true "$@") > "$target/dominion-build.log" 2>&1; then
        cat "$target/dominion-build.log" >&2
        echo "the $which build failed" >&2
        if [ "$which" = upstream ] && grep -q 'cannot find symbol' "$target/dominion-build.log"; then
            echo "(engine-states calls something only the patched engine has, so this tree cannot be built" \
                 "on upstream Dominion; measure an older commit: git worktree add DIR <commit>, then --tree DIR)" >&2
        fi
        exit 1
    fi
    cp "$here/target/benchmarks.jar" "$dest"
    if [ "$(engine_of "$dest")" != "$which" ]; then
        echo "$dest does not hold the $which engine" >&2
        exit 1
    fi
    echo "== $which jar built in $(( $(date +%s) - start )) s" >&2
}

# One JMH run: waits while another JMH holds the machine's JMH lock, never stops the script on
# a failing benchmark (its record is then missing, and the table says so).
run_jmh() { # $1: jar, $2: JSON result, $3...: JMH arguments
    local jar="$1" json="$2"
    shift 2
    local part="$json.log" tries=0 status
    while :; do
        status=0
        java -jar "$jar" "${mode[@]}" -f 1 -tu ns -prof gc -rf json -rff "$json" "$@" > "$part" 2>&1 || status=$?
        cat "$part" >> "$log"
        if grep -q 'Unable to acquire the JMH lock' "$part" && [ "$tries" -lt 60 ]; then
            tries=$((tries + 1))
            echo "   another JMH holds the lock; waiting 10 s" >&2
            sleep 10
            continue
        fi
        if [ "$status" != 0 ] || grep -q '<failure>' "$part"; then
            echo "   $(basename "$json" .json): JMH exited with status $status, or a benchmark failed (see $log)" >&2
        fi
        return 0
    done
}

if [ "$build" = 1 ]; then
    mkdir -p "$target"
    build_jar upstream "$upstream_jar" -Pupstream-api
    build_jar patched "$patched_jar"
fi

if [ "$run" = 1 ]; then
    for jar in "$upstream_jar" "$patched_jar"; do
        [ -f "$jar" ] || { echo "missing $jar: run without --no-build" >&2; exit 1; }
    done
    runs="$target/dominion-runs"
    rm -rf "$runs"
    mkdir -p "$runs"
    : > "$log"
    echo "== ${#cases[@]} cases, each upstream then patched; JMH's output -> $log" >&2
    echo "== load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    start=$(date +%s)
    i=0
    for c in "${cases[@]}"; do
        i=$((i + 1))
        IFS='|' read -r label bench params <<< "$c"
        if [ "$full" = 1 ]; then
            pattern="^dev\.enginestates\.bench\.${bench}(Timed)?\$"
        else
            pattern="^dev\.enginestates\.bench\.${bench}Timed\$"
        fi
        n=$(printf '%02d' "$i")
        t0=$(date +%s)
        for which in upstream patched; do
            jar="$upstream_jar"
            [ "$which" = patched ] && jar="$patched_jar"
            echo "### $n $which: $label" >> "$log"
            # shellcheck disable=SC2086 # $params is a list of JMH options
            run_jmh "$jar" "$runs/$n-$which.json" "$pattern" $params
        done
        echo "   [$n/${#cases[@]}] $label ($(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1 /proc/loadavg))" >&2
    done
    # every run's records, in run order, one JSON array for each engine
    for which in upstream patched; do
        node -e '
            const fs = require("fs");
            const [dir, which, out] = process.argv.slice(1);
            const files = fs.readdirSync(dir).filter((f) => f.endsWith("-" + which + ".json")).sort();
            const all = files.flatMap((f) => {
                const text = fs.readFileSync(dir + "/" + f, "utf8").trim();
                return text ? JSON.parse(text) : [];
            });
            fs.writeFileSync(out, JSON.stringify(all, null, 2) + "\n");
        ' "$runs" "$which" "$target/dominion-$which.json"
    done
    echo "== JMH done in $(( $(date +%s) - start )) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    if grep -q 'Exception\|<failure>' "$log"; then
        echo "== the log mentions exceptions or failures: grep -n 'Exception\|<failure>' $log" >&2
    fi
fi

echo
echo "Machine: $(nproc) cores, $(java -version 2>&1 | head -1); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Tree: $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')$( (cd "$root" && git status --porcelain --untracked-files=no 2>/dev/null | grep -q .) && echo ' (with uncommitted changes)')"
echo
# The table. As bench/compare.mjs: the mean from the AverageTime run when there is one (--full),
# else the Timed twin's meanNs; p99 from the Timed twin (one value an iteration in rawData,
# averaged); B/op from -prof gc (gc.alloc.rate.norm) of the AverageTime run, else of the twin.
RAN="$run" CASES="$(printf '%s\n' "${cases[@]}")" FORMAT="$self/format.mjs" node --input-type=module - "$upstream_json" "$patched_json" <<'EOF'
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const { figures, time, bytes } = await import(pathToFileURL(process.env.FORMAT).href);

const [upstreamFile, patchedFile] = process.argv.slice(2);
const load = (f) => {
    try {
        return JSON.parse(readFileSync(f, "utf8"));
    } catch (e) {
        console.error(`cannot read ${f}: ${e.message}`);
        return [];
    }
};
const upstream = load(upstreamFile);
const patched = load(patchedFile);


const ratio = (p, u) => (p == null || u == null || !(u > 0) ? "—" : (p / u).toFixed(2));

const lines = [
    "| case | upstream mean | p99 | B/op | patched mean | p99 | B/op | patched / upstream mean | p99 |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
let timedMeans = false;
const missing = [];
for (const line of process.env.CASES.split("\n").filter(Boolean)) {
    const [label, bench, paramText] = line.split("|");
    const params = {};
    for (const m of (paramText ?? "").matchAll(/-p (\w+)=(\S+)/g)) {
        params[m[1]] = m[2];
    }
    const u = figures(upstream, bench, params);
    const p = figures(patched, bench, params);
    if (!u && !p) {
        // not in these results: a failed run, or (with --no-run) a case the last run did not select
        if (process.env.RAN === "1") {
            missing.push(label);
        }
        continue;
    }
    if (!u || !p) {
        missing.push(`${label} (${u ? "patched" : "upstream"})`);
    }
    timedMeans ||= u?.meanFrom === "timed" || p?.meanFrom === "timed";
    lines.push(`| ${label} | ${time(u?.mean)} | ${time(u?.p99)} | ${bytes(u?.bytes)} | `
        + `${time(p?.mean)} | ${time(p?.p99)} | ${bytes(p?.bytes)} | ${ratio(p?.mean, u?.mean)} | ${ratio(p?.p99, u?.p99)} |`);
}
console.log(lines.join("\n"));
console.log();
console.log("Times per step (A–E) or per operation (T; ALARM+CALM is two transitions). Ratios: patched / upstream, under 1 is faster."
    + (timedMeans ? " Quick mode: the means come from the timed runs, so they include the timer (~20 ns)." : ""));
if (missing.length) {
    console.log(`No result (a failed or skipped run, see bench/target/dominion-run.log): ${missing.join("; ")}.`);
}
EOF
