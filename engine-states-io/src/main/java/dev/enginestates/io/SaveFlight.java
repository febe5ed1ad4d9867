package dev.enginestates.io;

import dev.enginestates.algorithm.Flight;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * What checkpoints, restores and streamed frames tell JDK Flight Recorder: their size in bytes
 * (UTF-8), their records and how long they took. The events are read by name
 * ({@code dev.enginestates.*}) and are not part of the API; with no recording each costs one
 * flag read.
 */
final class SaveFlight {
    private SaveFlight() {
    }

    @Name("dev.enginestates.Checkpoint")
    @Label("Checkpoint")
    @Category({"engine-states", "Saves"})
    @Description("A world written as a checkpoint (Saves.checkpoint): its size, its records and how long it took")
    @StackTrace(false)
    static final class CheckpointEvent extends Event {
        @Label("World")
        String world;
        @Label("Bytes")
        @Description("The checkpoint's JSON text in UTF-8")
        @DataAmount
        long bytes;
        @Label("Records")
        @Description("Machine records in the world")
        int records;
    }

    @Name("dev.enginestates.Restore")
    @Label("Restore")
    @Category({"engine-states", "Saves"})
    @Description("A checkpoint restored into a world (Saves.restore): its size, the world's records after it and how long it took")
    @StackTrace(false)
    static final class RestoreEvent extends Event {
        @Label("World")
        String world;
        @Label("Bytes")
        @Description("The checkpoint's JSON text in UTF-8")
        @DataAmount
        long bytes;
        @Label("Records")
        @Description("Machine records in the world after the restore")
        int records;
        @Label("Refused")
        @Description("Whether the checkpoint was refused (then nothing changed)")
        boolean refused;
    }

    @Name("dev.enginestates.StreamFrame")
    @Label("Stream frame")
    @Category({"engine-states", "Streaming"})
    @Description("A frame a RoomStream made for one player: its size, whether it is whole or the changes since the last one")
    @StackTrace(false)
    static final class FrameEvent extends Event {
        @Label("World")
        String world;
        @Label("Player")
        String player;
        @Label("Bytes")
        @Description("The frame's JSON text in UTF-8")
        @DataAmount
        long bytes;
        @Label("Whole")
        @Description("true: every record (a player who just joined); false: the changes since its last frame")
        boolean whole;
        @Label("Players")
        @Description("Players joined to the stream")
        int players;
    }

    private static final CheckpointEvent CHECKPOINT_PROBE = new CheckpointEvent();
    private static final RestoreEvent RESTORE_PROBE = new RestoreEvent();
    private static final FrameEvent FRAME_PROBE = new FrameEvent();

    /** Starts timing a checkpoint, or {@code null} when no recording wants it. */
    static CheckpointEvent checkpoint() {
        if (Flight.OFF || !CHECKPOINT_PROBE.isEnabled()) {
            return null;
        }
        CheckpointEvent e = new CheckpointEvent();
        e.begin();
        return e;
    }

    static void checkpointed(CheckpointEvent e, StateWorld world, String text) {
        e.end();
        if (e.shouldCommit()) {
            e.world = world.dominion().getName();
            e.bytes = bytes(text);
            e.records = records(world);
            e.commit();
        }
    }

    /** Starts timing a restore, or {@code null} when no recording wants it. */
    static RestoreEvent restore() {
        if (Flight.OFF || !RESTORE_PROBE.isEnabled()) {
            return null;
        }
        RestoreEvent e = new RestoreEvent();
        e.begin();
        return e;
    }

    static void restored(RestoreEvent e, StateWorld world, String text, boolean refused) {
        e.end();
        if (e.shouldCommit()) {
            e.world = world.dominion().getName();
            e.bytes = text == null ? 0 : bytes(text);
            e.records = records(world);
            e.refused = refused;
            e.commit();
        }
    }

    /** Starts timing one player's frame, or {@code null} when no recording wants it. */
    static FrameEvent frame() {
        if (Flight.OFF || !FRAME_PROBE.isEnabled()) {
            return null;
        }
        FrameEvent e = new FrameEvent();
        e.begin();
        return e;
    }

    static void framed(FrameEvent e, StateWorld world, String player, String text, boolean whole, int players) {
        e.end();
        if (e.shouldCommit()) {
            e.world = world.dominion().getName();
            e.player = player;
            e.bytes = bytes(text);
            e.whole = whole;
            e.players = players;
            e.commit();
        }
    }

    /** The text's size in UTF-8, counted without encoding it. */
    private static long bytes(String text) {
        long n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3; // a surrogate pair is 4 bytes, 2 per half
        }
        return n;
    }

    /** The world's records, or -1 when it cannot say (a restore refused on a closed world): the event never hides the refusal. */
    private static int records(StateWorld world) {
        try {
            int n = 0;
            for (States<?> m : world.machines()) {
                n += world.records(m).size();
            }
            return n;
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
