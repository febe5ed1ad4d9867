/**
 * engine-states, all of it: hierarchical state machines as ECS components on Dominion, in three
 * declaration styles (XState's config, polled tables, the builder FSM), on entities or on plain
 * objects, with dumps, checkpoints, replays, streaming, XState and SCXML import, diagrams and
 * devtools.
 *
 * <p>This module has no code of its own: it reads every engine-states module and passes them on,
 * so {@code requires dev.enginestates} gives a game the whole library. A game that needs less
 * requires the modules it uses: {@code dev.enginestates.core} (machines on plain objects),
 * {@code dev.enginestates.ecs} (machines on entities), {@code dev.enginestates.io} (saves, logs,
 * streams), {@code dev.enginestates.xstate} (XState JSON, diagrams), {@code dev.enginestates.scxml}
 * (SCXML) and {@code dev.enginestates.devtools} (the live page).
 */
module dev.enginestates {
    requires transitive dev.enginestates.core;
    requires transitive dev.enginestates.ecs;
    requires transitive dev.enginestates.io;
    requires transitive dev.enginestates.xstate;
    requires transitive dev.enginestates.scxml;
    requires transitive dev.enginestates.devtools;
}
