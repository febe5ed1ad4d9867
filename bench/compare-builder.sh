#!/usr/bin/env bash
# Runs the builder style's benchmarks (issue 16: the 002 document's StateMachineBuilder, on plain
# contexts with dev.enginestates.fsm.StateMachine and on entities with States.of(definition)) and
# their gdx-ai peer (DefaultStateMachine) in one JMH run, then prints one Markdown table: case,
# engine-states (mean, p99, B/op), gdx-ai (the same), and the ratios engine-states / gdx-ai; then
# the cost per machine beyond the handlers' own, and the issue's targets. The peer is a library,
# so it runs in the same harness: same JVM flags, same timer, same -prof gc (see bench/README.md).
#
#   bench/compare-builder.sh            each benchmark (mean, B/op) and its ...Timed twin (p99),
#                                       3 x 1 s warm-up, 4 x 1 s measurement (about 5 min on 2 cores)
#                                       -> bench/jmh-result-builder.json
#   bench/compare-builder.sh --quick    the same benchmarks, 2 x 0.5 s warm-up, 3 x 0.5 s measurement
#                                       (about 2.5 min) -> bench/jmh-result-builder-quick.json
#   bench/compare-builder.sh --no-build   use bench/target/benchmarks.jar as built
#   bench/compare-builder.sh --no-run     only print the table from the last results
#
# Any other argument goes to JMH (e.g. -jvmArgsAppend ...). JMH's own output goes to
# bench/target/builder-run.log. MVN_ARGS adds to the Maven command line (e.g. MVN_ARGS=-o). The
# run itself is bench/gdx-ai-compare.sh's, shared with bench/compare-polled.sh.
set -euo pipefail
name=builder
# the builder cases, ours (plain and ECS faces), the handlers-alone baselines and gdx-ai's, their
# ...Timed twins, and the busy-loop control
selection='^dev\.enginestates\.bench\.(Builder(Handlers|Cycle1s|Transition)Bench|NoiseFloorBench)\.'
params=()
table="$(cd "$(dirname "$0")" && pwd)/compare-builder.mjs"
. "$(dirname "$0")/gdx-ai-compare.sh"
