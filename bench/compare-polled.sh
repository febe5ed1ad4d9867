#!/usr/bin/env bash
# Runs the polled style's benchmarks (issue 11: engine-states' StatesDef on a plain object with
# dev.enginestates.plain.StateMachine) and their gdx-ai peer (DefaultStateMachine.update) in one
# JMH run, then prints one Markdown table: case, engine-states (mean, p99, B/op), gdx-ai (the
# same), and the ratios engine-states / gdx-ai. The peer is a library, so it runs in the same
# harness: same JVM flags, same timer, same -prof gc (see bench/README.md).
#
#   bench/compare-polled.sh            each benchmark (mean, B/op) and its ...Timed twin (p99),
#                                      3 x 1 s warm-up, 4 x 1 s measurement (about 3.5 min on 2 cores)
#                                      -> bench/jmh-result-polled.json
#   bench/compare-polled.sh --quick    the same benchmarks, 2 x 0.5 s warm-up, 3 x 0.5 s measurement
#                                      (about 1.5 min) -> bench/jmh-result-polled-quick.json
#   bench/compare-polled.sh --no-build   use bench/target/benchmarks.jar as built
#   bench/compare-polled.sh --no-run     only print the table from the last results
#
# Any other argument goes to JMH (e.g. -jvmArgsAppend ...). JMH's own output goes to
# bench/target/polled-run.log. MVN_ARGS adds to the Maven command line (e.g. MVN_ARGS=-o). The run
# itself is bench/gdx-ai-compare.sh's, shared with bench/compare-builder.sh.
set -euo pipefail
name=polled
# the polled cases, ours and gdx-ai's, their ...Timed twins, and the busy-loop control
selection='^dev\.enginestates\.bench\.(Polled(Guards|Cycle1s|Transition)Bench|NoiseFloorBench)\.'
# kinds=4: case G again with the machines spread over 4 states (PolledGuardsBench)
params=(-p kinds=1,4)
table="$(cd "$(dirname "$0")" && pwd)/compare-polled.mjs"
. "$(dirname "$0")/gdx-ai-compare.sh"
