package dev.enginestates.records;

import dev.enginestates.chart.Chart;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the library's own packages reach what its public types keep to themselves: a machine's
 * compiled chart (shared by every room on every thread, so never handed to game code), a face's
 * live record, and the ECS face's restore entry points. Each public type registers its side
 * when its class initializes, the JDK's "shared secrets" idiom: whoever holds an instance has
 * initialized its class, so the side is always there when asked for. This package is exported
 * to the test kit only; on the class path it is reachable, but it is not API.
 */
public final class Access {
    private Access() {
    }

    /** What {@code Machine} keeps private. */
    public interface MachineSide {
        /** The machine's compiled chart. */
        Chart chart(Object machine);

        /** A machine around a chart compiled by a declaration style of its own (the builder style's). */
        Object compiled(String id, Supplier<?> context, Chart chart, boolean tags, List<Class<?>> heldBy, boolean ownerOnly, int version,
                List<dev.enginestates.declare.Migration> migrations);
    }

    /** What a face keeps private: its live record. */
    public interface RecordSide {
        /** Whether {@code face} is one of this side's faces. */
        boolean owns(Object face);

        /** The face's live record. */
        MachineRecord record(Object face);
    }

    /** What the ECS face keeps private: making and overwriting records from snapshots. */
    public interface EcsSide {
        /** A record component of machine {@code states} holding a copy of {@code snapshot}. */
        Object trait(Object states, MachineRecord snapshot);

        /** Overwrites a record component with {@code snapshot}, whose times are on its world's clock. */
        void restore(Object stateRecord, MachineRecord snapshot);

        /**
         * Sets a world's clock as a replica follows its room's: unlike a restore's clock, the
         * records keep their times, so a wait that started at 3 s still started at 3 s.
         */
        void followClock(Object world, double time, long steps);

        /** Refuses {@code what} (a checkpoint, a restore) unless the world is between ticks, with a message saying why. */
        void checkAtRest(Object world, String what);

        /** Refuses {@code what} (a devtools publish, a stream's frame) from the game's code inside one of {@code world}'s calls. */
        void checkOutsideCalls(Object world, String what);

        /** Runs {@code writes} on {@code world}, throwing its listeners' failures only once all of it is done. */
        void writeAll(Object world, Runnable writes);

        /** Runs {@code work} ({@code what}: a checkpoint, a restore, a frame) once {@code world} is at rest, as its call under way. */
        <T> T during(Object world, String what, Supplier<T> work);

        /** Replays an input log on {@code world}: {@code start} once it is at rest, then {@code inputs}, not at rest between them. */
        void replay(Object world, Runnable start, Runnable inputs);

        /** Sets {@code world}'s clock as a restore does, from inside the restore under way. */
        void restoreClock(Object world, double time, long steps);

        /** Swaps machine {@code from} to {@code to} on {@code world} as an input of the replay under way, which is its next call. */
        int swapReplayed(Object world, Object from, Object to);

        /** Marks {@code world} a replica's: it links the child machines its frames bring, and starts or stops none. */
        void mirrorChildren(Object world);
    }

    private static volatile MachineSide machines;
    private static volatile EcsSide ecs;
    private static volatile RecordSide[] faces = new RecordSide[0];

    /** Called once, by {@code Machine}'s class initializer. */
    public static void register(MachineSide side) {
        machines = Objects.requireNonNull(side);
    }

    /** Called once, by the ECS face's class initializer. */
    public static void register(EcsSide side) {
        ecs = Objects.requireNonNull(side);
    }

    /** Called once by each face's class initializer. */
    public static synchronized void register(RecordSide side) {
        RecordSide[] now = faces;
        RecordSide[] next = Arrays.copyOf(now, now.length + 1);
        next[now.length] = Objects.requireNonNull(side);
        faces = next;
    }

    /**
     * Called once by each face's class initializer: its faces are the instances of {@code type},
     * and {@code record} reaches a face's live record.
     */
    public static void registerFace(Class<?> type, Function<Object, MachineRecord> record) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(record, "record");
        register(new RecordSide() {
            @Override
            public boolean owns(Object face) {
                return type.isInstance(face);
            }

            @Override
            public MachineRecord record(Object face) {
                return record.apply(face);
            }
        });
    }

    /** The compiled chart of a {@code Machine}. */
    public static Chart chart(Object machine) {
        return machines.chart(Objects.requireNonNull(machine, "machine"));
    }

    /**
     * A {@code Machine} around a chart compiled by a declaration style of its own; the caller
     * casts, after {@link #initialize initializing} {@code Machine}, which a game may not have
     * touched yet.
     */
    public static Object compiled(String id, Supplier<?> context, Chart chart, boolean tags, List<Class<?>> heldBy,
            boolean ownerOnly, int version, List<dev.enginestates.declare.Migration> migrations) {
        return machines.compiled(id, context, chart, tags, heldBy, ownerOnly, version, migrations);
    }

    /** The live record behind a face: a {@code StateRecord}, a plain or a builder-style {@code StateMachine}. */
    public static MachineRecord record(Object face) {
        Objects.requireNonNull(face, "face");
        for (RecordSide side : faces) {
            if (side.owns(face)) {
                return side.record(face);
            }
        }
        throw new IllegalArgumentException("a " + face.getClass().getName() + " is not a face of a machine;"
                + " expected a StateRecord or a StateMachine");
    }

    /** A record component of {@code states} (a {@code States}) holding a copy of {@code snapshot}; the caller casts. */
    public static Object trait(Object states, MachineRecord snapshot) {
        return ecs.trait(Objects.requireNonNull(states, "states"), snapshot);
    }

    /** Overwrites {@code stateRecord} (a {@code StateRecord}) with {@code snapshot}. */
    public static void restore(Object stateRecord, MachineRecord snapshot) {
        ecs.restore(Objects.requireNonNull(stateRecord, "record"), snapshot);
    }

    /** Sets {@code world}'s (a {@code StateWorld}'s) clock, leaving its records' times as they are (a replica). */
    public static void followClock(Object world, double time, long steps) {
        ecs.followClock(Objects.requireNonNull(world, "world"), time, steps);
    }

    /** Throws {@link IllegalStateException} unless {@code world} (a {@code StateWorld}) is between ticks. */
    public static void checkAtRest(Object world, String what) {
        ecs.checkAtRest(Objects.requireNonNull(world, "world"), what);
    }

    /** Refuses {@code what} from the game's code inside one of {@code world}'s (a {@code StateWorld}'s) calls; see {@link EcsSide#checkOutsideCalls}. */
    public static void checkOutsideCalls(Object world, String what) {
        ecs.checkOutsideCalls(Objects.requireNonNull(world, "world"), what);
    }

    /** Runs {@code writes} (a restore's records) on {@code world} (a {@code StateWorld}), its listeners' failures thrown at the end. */
    public static void writeAll(Object world, Runnable writes) {
        ecs.writeAll(Objects.requireNonNull(world, "world"), writes);
    }

    /** Runs {@code work} on {@code world} (a {@code StateWorld}) once it is at rest, as the call under way; see {@link EcsSide#during}. */
    public static <T> T during(Object world, String what, Supplier<T> work) {
        return ecs.during(Objects.requireNonNull(world, "world"), what, work);
    }

    /** Replays an input log on {@code world} (a {@code StateWorld}); see {@link EcsSide#replay}. */
    public static void replay(Object world, Runnable start, Runnable inputs) {
        ecs.replay(Objects.requireNonNull(world, "world"), start, inputs);
    }

    /** Sets {@code world}'s (a {@code StateWorld}'s) clock from inside a restore under way. */
    public static void restoreClock(Object world, double time, long steps) {
        ecs.restoreClock(Objects.requireNonNull(world, "world"), time, steps);
    }

    /** Marks {@code world} a replica's; see {@link EcsSide#mirrorChildren}. */
    public static void mirrorChildren(Object world) {
        ecs.mirrorChildren(Objects.requireNonNull(world, "world"));
    }

    /** Swaps {@code from} to {@code to} (two {@code States}) on {@code world} as a replayed input; see {@link EcsSide#swapReplayed}. */
    public static int swapReplayed(Object world, Object from, Object to) {
        return ecs.swapReplayed(Objects.requireNonNull(world, "world"), from, to);
    }

    /** Initializes {@code type}, so that it has registered its side. */
    public static void initialize(Class<?> type) {
        try {
            Class.forName(type.getName(), true, type.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(type + " is loaded, so it cannot be missing", e);
        }
    }
}
