package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachineFailure;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Children started from code: a squad's members live until the squad goes or stops them, and checkpoint with it. */
class SpawnedChildrenTest {
    static final double DT = 1.0 / 60;

    public static final class Member {
        public int hp = 2;
    }

    public static final class Squad {
        public int recruited;
        public int fallen;
    }

    static final Machine<Member> MEMBER = Machine.define("member", Member::new, m -> m
            .initial("alive")
            .state("alive", s -> s
                    .on("HIT", t -> t.action((c, e) -> c.hp--))
                    .always(t -> t.guard((c, e) -> c.hp <= 0).target("fallen"))
                    .waitFor(1, t -> t.target("alive").reenter(true).action((c, e, self) -> self.sendParent(Event.of("REPORT")))))
            .finalState("fallen"));

    static final Machine<Squad> SQUAD = Machine.define("squad", Squad::new, m -> m
            .spawns(MEMBER)
            .initial("active")
            .state("active", s -> s
                    .on("RECRUIT", t -> t.action((c, e, self) -> self.spawnChild("m" + ++c.recruited, MEMBER, new Member())))
                    .on("DISMISS", t -> t.action((c, e, self) -> self.stopChild((String) e.get("id"))))
                    .on("REPORT", t -> t.action((c, e) -> { }))
                    .on("xstate.done.actor.*", t -> t.action((c, e) -> c.fallen++))));

    static final States<Squad> SQUADS = States.of(SQUAD);
    static final States<Member> MEMBERS = States.of(MEMBER);

    @Test
    void spawnedChildrenLiveUntilTheirParentGoesAndAreFoundByQuery() {
        try (StateWorld world = StateWorld.create()) {
            Entity squad = world.spawn(EntityKey.of("squad-1"), SQUADS.trait());
            for (int i = 0; i < 3; i++) {
                SQUADS.send(squad, "RECRUIT");
            }
            assertEquals(List.of("m1", "m2", "m3"), SQUADS.read(squad).children());
            assertNotNull(world.entity("squad-1/m2"));
            assertEquals(3, world.query(MEMBERS.is("alive")).count());
            SQUADS.send(squad, Event.of("DISMISS").with("id", "m2"));
            assertEquals(List.of("m1", "m3"), SQUADS.read(squad).children());
            assertEquals(2, world.records(MEMBERS).size());
            MEMBERS.send(world.entity("squad-1/m1"), "HIT");
            MEMBERS.send(world.entity("squad-1/m1"), "HIT");
            assertEquals(1, SQUADS.read(squad).context().fallen, "a wildcard descriptor hears a spawned child's done event");
            world.despawn(squad);
            assertTrue(world.records(MEMBERS).isEmpty(), "the members went with their squad");
        }
    }

    @Test
    void aSpawnedChildIsLinkedAgainByARestore() {
        Saves saves = Saves.of(SQUADS); // members are saved with the squad that declares it spawns them
        try (StateWorld room = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            Entity squad = room.spawn(EntityKey.of("squad-1"), SQUADS.trait());
            SQUADS.send(squad, "RECRUIT");
            SQUADS.send(squad, "RECRUIT");
            for (int i = 0; i < 30; i++) {
                room.step(DT);
            }
            saves.restoreSpawningMissing(restored, saves.checkpoint(room));
            Entity copy = restored.entity("squad-1");
            assertEquals(List.of("m1", "m2").size(), SQUADS.read(copy).children().size());
            assertEquals(restored.entity("squad-1/m1"), SQUADS.read(copy).child("m1"));
            for (int i = 0; i < 90; i++) {
                room.step(DT);
                restored.step(DT);
            }
            assertEquals(saves.checkpoint(room), saves.checkpoint(restored));
            restored.despawn(copy);
            assertTrue(restored.records(MEMBERS).isEmpty(), "restored members still go with their squad");
        }
    }

    @Test
    void spawnedChildrenTheGameDespawnsFreeTheirPlacesSoAParentSpawnsForeverWithinItsBound() {
        try (StateWorld world = StateWorld.create()) {
            Entity squad = world.spawn(EntityKey.of("squad-1"), SQUADS.trait());
            for (int i = 0; i < 10_000; i++) { // more than the 4096 a record runs at once
                SQUADS.send(squad, "RECRUIT");
                world.despawn(world.entity("squad-1/m" + (i + 1)));
            }
            assertTrue(SQUADS.read(squad).children().isEmpty());
            assertEquals(10_000, SQUADS.read(squad).context().recruited);
            assertTrue(world.records(MEMBERS).isEmpty());
        }
    }

    @Test
    void aMachineSpawnsOnlyTheMachinesItDeclares() {
        try (StateWorld world = StateWorld.create()) {
            Machine<Squad> rogue = Machine.define("rogue", Squad::new, m -> m
                    .initial("a")
                    .state("a", s -> s.on("GO", t -> t.action((c, e, self) -> self.spawnChild("x", MEMBER, new Member())))));
            States<Squad> rogues = States.of(rogue);
            Entity e = world.spawn(EntityKey.of("r"), rogues.trait());
            RuntimeException x = assertThrows(RuntimeException.class, () -> rogues.send(e, "GO"));
            assertTrue(String.valueOf(x.getMessage()).contains("spawns(MEMBER)") || String.valueOf(x.getCause()).contains("spawns(MEMBER)"), x.toString());
            assertTrue(world.records(MEMBERS).isEmpty());
        }
    }

    public static final class Cell {
        public int n;
    }

    @Test
    void childrenNestAtMostSixteenLevels() {
        List<MachineFailure> failures = new ArrayList<>();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (StateWorld world = StateWorld.create()) {
                world.onFailure(failures::add);
                Machine<Cell> deep = deepChain(20);
                States<Cell> top = States.of(deep);
                Entity e = world.spawn(EntityKey.of("c"), top.trait());
                RuntimeException x = assertThrows(RuntimeException.class, () -> top.send(e, "GO"));
                assertTrue(x.toString().contains("16") || String.valueOf(x.getCause()).contains("16"), x.toString());
                assertEquals(1, countMachines(world),
                        "the refused chain left no child behind: the top machine alone");
            }
        });
    }

    static int countMachines(StateWorld world) {
        int n = 0;
        for (States<?> m : world.machines()) {
            n += world.records(m).size();
        }
        return n;
    }

    /** Machine level k invokes level k+1 from its initial state, through {@code levels} levels; the top one on GO. */
    static Machine<Cell> deepChain(int levels) {
        Machine<Cell> next = Machine.define("level" + levels, Cell::new, m -> m.initial("idle").state("idle"));
        for (int k = levels - 1; k >= 1; k--) {
            Machine<Cell> child = next;
            next = Machine.define("level" + k, Cell::new, m -> m.initial("running").state("running", s -> s.invoke("next", child)));
        }
        Machine<Cell> first = next;
        return Machine.define("level0", Cell::new, m -> m
                .initial("idle")
                .state("idle", s -> s.on("GO", "running"))
                .state("running", s -> s.invoke("next", first)));
    }
}
