package dev.enginestates.io;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A context whose state sits in fields Jackson does not see is refused by {@code Saves.of},
 * {@code RoomStream.of} and {@code Replica.of}, naming the machine, the type and each such field:
 * Jackson would write it as {@code {}} and read that back whole, so every checkpoint, dump, log and
 * frame would drop the state with nothing to notice. Contexts Jackson writes whole are accepted:
 * public fields, getters and setters, records, fields marked transient or {@code @JsonIgnore}, no
 * fields at all.
 */
class ContextStateJacksonCannotSeeTest {
    static {
        RandomWorlds.quiet();
    }

    /** Its state in a package-private field without getter or setter. */
    public static final class Lamp {
        int lit;
    }

    /** A public field Jackson writes, beside a private one it does not. */
    public static final class HalfSeen {
        public int seen;
        private int unseen;
    }

    /** Its own fields are public, its superclass's are not. */
    public static class Base {
        int charge;
    }

    /** A context that inherits a hidden field. */
    public static final class Derived extends Base {
        public int level;
    }

    /** A class the context holds, whose state is hidden. */
    public static final class Pocket {
        int coins;
    }

    /** Holds pockets in a field and in a list: both are state Jackson writes as {}. */
    public static final class Coat {
        public Pocket pocket = new Pocket();
        public List<Pocket> spares = new ArrayList<>();
    }

    /** Private fields with public getters and setters. */
    public static final class Bean {
        private int lit;

        public int getLit() {
            return lit;
        }

        public void setLit(int lit) {
            this.lit = lit;
        }
    }

    /** A context as a record. */
    public record Counter(int count, String name) {
        /** The fresh counter. */
        public Counter() {
            this(0, "");
        }
    }

    /** Fields that are not state, saying so. */
    public static final class Marked {
        public int lit;
        transient int cache;
        @JsonIgnore
        int scratch;
        static int shared;
    }

    /** A builder-style context: the contract's fields are the world's to write back, its own field is saved. */
    public static final class Door extends AIContext {
        public int opened;
    }

    /** A builder-style context whose own field is hidden. */
    public static final class Gate extends AIContext {
        int opened;
    }

    static <C extends AIContext> States<C> builder(String id, java.util.function.Supplier<C> context) {
        return States.of(new StateMachineBuilder<C>(id, context).configureState("Closed").asInitial().handler((d, dt) -> null).build());
    }

    /** Empty on purpose. */
    public static final class Nothing {
    }

    static <C> States<C> simple(String id, java.util.function.Supplier<C> context) {
        return States.define(id, context, m -> m.initial("a").state("a", s -> s.on("GO", "b")).state("b"));
    }

    private static CheckpointException refused(States<?> m) {
        return assertThrows(CheckpointException.class, () -> Saves.of(m));
    }

    @Test
    void aContextWithAFieldJacksonCannotSeeIsRefusedNamingTheMachineTheTypeAndTheField() {
        CheckpointException e = refused(simple("lamp", Lamp::new));
        assertEquals(1, e.problems().size(), e.getMessage());
        String p = e.problems().get(0);
        assertTrue(p.contains("machine 'lamp'"), p);
        assertTrue(p.contains(Lamp.class.getName()), p);
        assertTrue(p.contains("field lit;"), p);
        assertTrue(p.contains("public") && p.contains("getter and setter") && p.contains("record"), p);
        assertTrue(p.contains("transient") && p.contains("@JsonIgnore"), p);
    }

    @Test
    void onlyTheFieldsJacksonCannotSeeAreNamed() {
        String p = refused(simple("half", HalfSeen::new)).problems().get(0);
        assertTrue(p.contains("field unseen;"), p);
        assertFalse(p.contains("seen,"), p);
    }

    @Test
    void aHiddenFieldOfASuperclassIsRefusedNamingTheClassThatDeclaresIt() {
        String p = refused(simple("derived", Derived::new)).problems().get(0);
        assertTrue(p.contains("field charge (of " + Base.class.getName() + ")"), p);
    }

    @Test
    void aHiddenFieldOfAClassTheContextHoldsIsRefusedNamingItsPath() {
        String p = refused(simple("coat", Coat::new)).problems().get(0);
        assertTrue(p.contains("pocket.coins (of " + Pocket.class.getName() + ")"), p);
    }

    @Test
    void roomStreamsAndReplicasRefuseItToo() {
        States<Lamp> m = simple("lamp", Lamp::new);
        try (StateWorld room = StateWorld.create(); StateWorld player = StateWorld.create()) {
            StreamException s = assertThrows(StreamException.class, () -> RoomStream.of(room, m));
            assertTrue(s.problems().get(0).contains("field lit;"), s.getMessage());
            StreamException r = assertThrows(StreamException.class, () -> Replica.of(player, "p1", m));
            assertTrue(r.problems().get(0).contains("field lit;"), r.getMessage());
        }
    }

    @Test
    void contextsJacksonWritesWholeAreAccepted() {
        Saves.of(simple("bean", Bean::new), simple("counter", Counter::new), simple("marked", Marked::new),
                simple("nothing", Nothing::new), simple("guard", BadCheckpointTest.Bells::new));
    }

    @Test
    void aBuilderContextIsCheckedForTheFieldsTheGameAddsAlone() {
        Saves.of(builder("door", Door::new));
        String p = refused(builder("gate", Gate::new)).problems().get(0);
        assertTrue(p.contains("field opened;"), p);
    }

    @Test
    void aContextWithGettersAndSettersKeepsItsStateThroughACheckpoint() {
        States<Bean> m = simple("bean", Bean::new);
        Saves saves = Saves.of(m);
        try (StateWorld world = StateWorld.create(); StateWorld other = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("b1"), m.trait());
            m.read(e).context().setLit(7);
            saves.restoreSpawningMissing(other, saves.checkpoint(world));
            assertEquals(7, m.read(other.entity("b1")).context().getLit());
        }
    }
}
