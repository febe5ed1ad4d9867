package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which tags each entity carries is kept by the machine's {@link TagMoves}, by the record's slot
 * in its {@link Binding} (issue 14, memory per machine: no array per record). These pin what
 * that must survive: the binding closing up its holes (slots renumbered), a chart of more than
 * 64 states (more than one word a slot), and a record leaving and joining again.
 */
class TagBitsBySlotTest {
    static final States<Object> CYCLE = States.of(Machine.define("tagbits-cycle", () -> null, m -> m
            .initial("a")
            .state("a", s -> s.on("GO", "b"))
            .state("b", s -> s.on("GO", "c"))
            .state("c", s -> s.on("GO", "a"))));

    static final int BIG = 70;
    static final States<Object> BIG_CHAIN = States.of(Machine.define("tagbits-big", () -> null, m -> {
        m.initial("s0");
        for (int i = 0; i < BIG; i++) {
            String next = "s" + ((i + 1) % BIG);
            m.state("s" + i, s -> s.on("NEXT", next));
        }
    }));

    /** The entity carries exactly the tag of the record's active state among {@code paths}. */
    private static void assertTagsFollow(States<Object> machine, Entity e, String... paths) {
        String active = machine.read(e).state();
        for (String p : paths) {
            assertEquals(p.equals(active), e.has(machine.is(p)), () -> "entity " + e + " in '" + active + "': tag of '" + p + "'");
        }
    }

    @Test
    void tagsFollowTheirRecordsAfterTheBindingClosesUpItsHoles() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> all = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Entity e = world.spawn(CYCLE.trait());
                for (int k = 0; k < i % 3; k++) {
                    CYCLE.send(e, "GO"); // records in a, b and c, by slot
                }
                all.add(e);
            }
            world.step(1 / 60.0);
            List<Entity> kept = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if (i % 10 == 7) {
                    kept.add(all.get(i)); // 20 survivors, each moved down to a lower slot
                } else {
                    world.despawn(all.get(i));
                }
            }
            world.step(1 / 60.0); // the holes outnumber the live records: closed up between steps
            world.step(1 / 60.0);
            for (int round = 0; round < 4; round++) {
                for (Entity e : kept) {
                    assertTagsFollow(CYCLE, e, "a", "b", "c");
                    CYCLE.send(e, "GO");
                }
                world.step(1 / 60.0);
            }
            for (int i = 0; i < 30; i++) {
                Entity e = world.spawn(CYCLE.trait()); // new records in the freed slots' places carry only their own tags
                assertTagsFollow(CYCLE, e, "a", "b", "c");
                CYCLE.send(e, "GO");
                assertTagsFollow(CYCLE, e, "a", "b", "c");
            }
            assertEquals(kept.size() + 30, world.query(CYCLE.recordType()).list().size());
        }
    }

    @Test
    void aChartOfMoreThan64StatesMovesTheTagsOfItsLaterStates() {
        String[] paths = new String[BIG];
        for (int i = 0; i < BIG; i++) {
            paths[i] = "s" + i;
        }
        try (StateWorld world = StateWorld.create()) {
            Entity first = world.spawn(BIG_CHAIN.trait());
            Entity second = world.spawn(BIG_CHAIN.trait());
            for (int i = 0; i < BIG + 3; i++) {
                BIG_CHAIN.send(first, "NEXT");
                if (i % 2 == 0) {
                    BIG_CHAIN.send(second, "NEXT");
                }
                assertTagsFollow(BIG_CHAIN, first, paths);
                assertTagsFollow(BIG_CHAIN, second, paths);
            }
            assertEquals("s3", BIG_CHAIN.read(first).state());
        }
    }

    @Test
    void aRecordThatLeavesTakesItsTagsAndOneThatJoinsBringsItsOwn() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(CYCLE.trait());
            CYCLE.send(e, "GO");
            assertTrue(e.has(CYCLE.is("b")));
            assertTrue(world.detach(e, CYCLE));
            assertFalse(e.has(CYCLE.is("a")) || e.has(CYCLE.is("b")) || e.has(CYCLE.is("c")), "no tag stays on the entity");
            StateRecord<Object> fresh = world.attach(e, CYCLE.trait());
            assertEquals("a", fresh.state());
            assertTagsFollow(CYCLE, e, "a", "b", "c");
            CYCLE.send(e, "GO");
            CYCLE.send(e, "GO");
            assertTagsFollow(CYCLE, e, "a", "b", "c");
        }
    }
}
