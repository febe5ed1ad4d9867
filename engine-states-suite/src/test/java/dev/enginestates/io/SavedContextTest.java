package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SavedContext}, the contract: a context that saves itself is written as it saves (not
 * through Jackson), read back by its own {@code restore} into a fresh context; what it saves must
 * be JSON values, and its code that throws refuses the checkpoint or the restore with the entity
 * and machine named, the world unchanged.
 */
class SavedContextTest {
    static {
        RandomWorlds.quiet();
    }

    /** Keeps its state where Jackson cannot see it; {@code poison} makes save or restore misbehave. */
    public static final class Hidden implements SavedContext {
        static String poison = "";
        private final List<String> seen = new ArrayList<>();

        @Override
        public Object save() {
            if (poison.equals("save throws")) {
                throw new IllegalStateException("the ledger is locked");
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("seen", new ArrayList<Object>(seen));
            if (poison.equals("save gives an object")) {
                out.put("thing", new Object());
            }
            return out;
        }

        @Override
        public void restore(Object saved) {
            if (poison.equals("restore throws")) {
                throw new ArithmeticException("boom");
            }
            if (!(saved instanceof Map<?, ?> m) || !(m.get("seen") instanceof List<?> l) || m.size() != 1) {
                throw new IllegalArgumentException("seen: expected {\"seen\": [names]}");
            }
            List<String> names = new ArrayList<>();
            for (Object o : l) {
                if (!(o instanceof String s)) {
                    throw new IllegalArgumentException("seen: expected strings, found " + o);
                }
                names.add(s);
            }
            seen.addAll(names);
        }
    }

    static final States<Hidden> M = States.define("hidden", Hidden::new, m -> m
            .initial("a")
            .state("a", s -> s.on("GO", t -> t.target("b").action((h, e) -> h.seen.add("go"))))
            .state("b", s -> s.on("GO", t -> t.target("a").action((h, e) -> h.seen.add("back")))));

    static <T> T poisoned(String poison, java.util.function.Supplier<T> body) {
        Hidden.poison = poison;
        try {
            return body.get();
        } finally {
            Hidden.poison = "";
        }
    }

    @Test
    void aSavedContext_isWrittenAsItSaves_andReadBackByItsRestore() {
        Saves saves = Saves.of(M);
        try (StateWorld w = StateWorld.create(); StateWorld fresh = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("h1"), M.trait());
            M.send(e, "GO");
            M.send(e, "GO");
            String cp = saves.checkpoint(w);
            assertTrue(cp.replaceAll("\\s", "").contains("\"context\":{\"seen\":[\"go\",\"back\"]}"), cp);
            saves.restoreSpawningMissing(fresh, cp);
            assertEquals(List.of("go", "back"), M.read(fresh.entity("h1")).context().seen);
            assertEquals(cp, saves.checkpoint(fresh));
        }
    }

    @Test
    void aSaveThatThrows_refusesTheCheckpoint_namingEntityAndMachine() {
        Saves saves = Saves.of(M);
        try (StateWorld w = StateWorld.create()) {
            w.spawn(EntityKey.of("h1"), M.trait());
            CheckpointException x = poisoned("save throws", () -> assertThrows(CheckpointException.class, () -> saves.checkpoint(w)));
            assertEquals(List.of("$.entities.h1.hidden.context: machine 'hidden' on entity 'h1' cannot save its context: the ledger is locked"),
                    x.problems());
        }
    }

    @Test
    void aSaveThatGivesWhatIsNotJson_refusesTheCheckpoint_namingThePart() {
        Saves saves = Saves.of(M);
        try (StateWorld w = StateWorld.create()) {
            w.spawn(EntityKey.of("h1"), M.trait());
            CheckpointException x = poisoned("save gives an object", () -> assertThrows(CheckpointException.class, () -> saves.checkpoint(w)));
            assertTrue(x.problems().get(0).contains("the saved state.thing holds a java.lang.Object; expected JSON values"), x.getMessage());
        }
    }

    @Test
    void aRestoreThatThrows_orRefuses_isAProblem_andTheWorldIsUnchanged() {
        Saves saves = Saves.of(M);
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("h1"), M.trait());
            M.send(e, "GO");
            String cp = saves.checkpoint(w);
            M.send(e, "GO");
            String now = saves.checkpoint(w);
            CheckpointException x = poisoned("restore throws", () -> assertThrows(CheckpointException.class, () -> saves.restore(w, cp)));
            assertEquals(List.of("$.entities.h1.hidden.context: machine 'hidden' cannot restore its context: java.lang.ArithmeticException: boom"),
                    x.problems());
            CheckpointException y = assertThrows(CheckpointException.class, () -> saves.restore(w, cp.replace("\"go\"", "7")));
            assertTrue(y.problems().get(0).endsWith("cannot restore its context: seen: expected strings, found 7"), y.getMessage());
            assertEquals(now, saves.checkpoint(w), "the world is unchanged");
        }
    }

    @Test
    void savesOf_refusesAContextWhoseFreshStateDoesNotReadBack() {
        CheckpointException x = poisoned("restore throws", () -> assertThrows(CheckpointException.class, () -> Saves.of(M)));
        assertTrue(x.problems().get(0).startsWith("machine 'hidden': a fresh context of type " + Hidden.class.getName()
                + " cannot be saved and restored: "), x.getMessage());
    }
}
