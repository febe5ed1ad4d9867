package dev.enginestates.samples.readme;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineException;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.samples.docs.Pages;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every code block in the README compiles. Each Java block's lines must stand, in order, in
 * compiled sources ({@link Tour}, {@link ReadmeKitTest} and the other files of this package and of
 * samples/.../docs), and the tours, whose code the README and the pages of docs/ show, run and do
 * what those pages say ({@code DocsCodeTest} checks the Java blocks of docs/ the same way).
 */
class ReadmeCodeTest {
    private static Path root() {
        return Pages.root();
    }

    private static String normal(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    @Test
    void everyJavaBlockOfTheReadmeStandsLineForLineInCompiledSources() {
        List<String> source = Pages.compiledLines();
        List<String> blocks = Pages.javaBlocks(root().resolve("README.md"));
        for (int i = 0; i < blocks.size(); i++) {
            String missing = Pages.firstLineNotInSources(blocks.get(i), source);
            assertTrue(missing == null, "README block " + (i + 1) + ": this line is not in the compiled tour sources (in order):\n  "
                    + missing);
        }
        assertTrue(blocks.size() >= 2, "the README has its tour and its kit test: " + blocks.size());
    }

    @Test
    void thePolledTourDoesWhatTheReadmeSays() {
        PolledTour.LOG.clear();
        assertEquals("combat.engage", PolledTour.plain(), "back to combat.engage 0.2 s after the hit");
        assertEquals(List.of("[fsm] patrol>combat.engage", "[fsm] combat.engage>flinch", "[fsm] flinch>combat.engage"), PolledTour.LOG);
        assertEquals(1, PolledTour.ecs(), "the bot is back in combat");
    }

    @Test
    void theBuilderTourDoesWhatTheReadmeSays() {
        assertEquals(46, BuilderTour.plain(), "the door opens on the 46th tick of Opening at 60 Hz (float32 clock)");
        assertEquals("Closed 1", BuilderTour.ecs(), "forced back to Closed, and its tag with it");
        BuilderTour.Fighter f = BuilderTour.combo();
        assertEquals(90, f.dummyHp, "the damage window's callback ran once");
        assertEquals(List.of("enter Idle", "enter Attack", "input open", "enter Idle"), f.log);
        assertEquals(1 / 60f, BuilderTour.split(), "the work between advance and runStates reads the advanced clock");
    }

    @Test
    void theListenTourDoesWhatTheReadmeSays() {
        ListenTour.Seen seen = ListenTour.tour();
        assertEquals(List.of(
                "siege:  -> fight (spawn)",
                "siege: fight -> breather (WAVE_HELD)",
                "siege took no WAVE_HELD",
                "siege: breather -> fight (states.wait)",
                "top state: fight"), seen.log());
        assertEquals(List.of("", "Catch your breath", ""), seen.banner(), "the banner hears the spawn and each top-state change");
    }

    @Test
    void theQueueTourDoesWhatTheReadmeSays() {
        assertEquals("1 idle", QueueTour.tour(), "one shot after half a second, the second cancelled, none without power");
    }

    @Test
    void theSelfTourDoesWhatTheReadmeSays() {
        SelfTour.Seen seen = SelfTour.tour();
        assertTrue(seen.nearOnFire, "the entry action put OnFire on its own entity");
        assertEquals(1, seen.onFire, "Dominion's own query finds it");
        assertTrue(seen.farBurning, "2 s later the near tree burned out and its action lit the far one");
        assertEquals("standing", seen.farAfterRain, "the when test read Wet on its entity");
        assertFalse(seen.farOnFireAfterRain, "the exit action took OnFire off");
        assertTrue(seen.typed, "self.entity() and self.world() are the entity and the world, typed by the assignment");
        assertTrue(seen.detachedAfterDespawn, "after despawn, self says so");
        assertEquals(null, seen.plainEntity, "a plain machine has no entity");
        assertEquals(null, seen.plainWorld, "nor a world");
        assertFalse(seen.plainAttached);
    }

    @Test
    void theBuilderStylesRulesAreAsTheReadmeStatesThem() {
        // a name no state has: the machine stays, and it is logged once through System.Logger "dev.enginestates"
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("dev.enginestates");
        List<String> logged = new ArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                logged.add(r.getLevel() + " " + new java.util.logging.SimpleFormatter().formatMessage(r));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(capture);
        jul.setUseParentHandlers(false); // heard here, not printed
        try {
            var typo = new StateMachineBuilder<BuilderTour.Fighter>("readme-typo")
                    .configureState("Idle").asInitial().handler((f, dt) -> "Atack")
                    .configureState("Attack").handler((f, dt) -> null)
                    .build();
            var fsm = new StateMachine<>(typo);
            var f = new BuilderTour.Fighter();
            fsm.initialize(f);
            for (int i = 0; i < 5; i++) {
                fsm.update(f, 1 / 60f);
            }
            assertEquals("Idle", fsm.state());
            assertEquals(1, logged.size(), logged.toString());
            assertTrue(logged.get(0).startsWith("WARNING machine 'readme-typo': the handler of state 'Idle' returned 'Atack', which"
                    + " names no state"), logged.get(0));
            assertTrue(logged.get(0).contains("did you mean 'Attack'"), logged.get(0));
            // transitionTo an unknown name throws and changes nothing
            MachineException e = assertThrows(MachineException.class, () -> fsm.transitionTo(f, "Atack"));
            assertTrue(e.getMessage().contains("did you mean 'Attack'"), e.getMessage());
            assertEquals("Idle", fsm.state());
        } finally {
            jul.removeHandler(capture);
            jul.setUseParentHandlers(true);
        }

        // the error the README prints for a window without a duration and a duration without a handler
        InvalidMachineException bad = assertThrows(InvalidMachineException.class, () -> new StateMachineBuilder<BuilderTour.Fighter>("combo")
                .configureState("Idle").asInitial().handler((f, dt) -> "Attack")
                .configureState("Attack").window("damage", 0.35f, 0.55f).handler((f, dt) -> null)
                .configureState("Atack").duration(0.5f)
                .build());
        assertEquals("machine 'combo' is invalid: 2 problems\n"
                + "  - state 'Attack' has windows [damage] but no duration; a window's bounds are fractions of the state's duration:"
                + " configureState(\"Attack\").duration(seconds)\n"
                + "  - state 'Atack' has a duration but no handler; a state without a handler does nothing and its time never advances;"
                + " did you mean 'Attack'?", bad.getMessage().replace("\r\n", "\n"));

        // window bounds are inclusive progress; an edge crossed during the delay is not run later
        var def = new StateMachineBuilder<BuilderTour.Fighter>("readme-window")
                .configureState("Swing").asInitial().duration(1f).delay(0.5f)
                .window("early", 0.25f, 0.5f)
                .window("late", 0.75f, 1f)
                .handler((f, dt) -> null)
                .build();
        var f = new BuilderTour.Fighter();
        var swing = new StateMachine<>(def);
        swing.initialize(f);
        swing.update(f, 0.5f);     // progress 0.5: the last point of 'early'
        assertTrue(f.inWindow("early"), "bounds are inclusive");
        assertTrue(f.windowEntered("early"), "the advance crossed its start");
        swing.update(f, 0.25f);    // 0.75: the first point of 'late'
        assertTrue(f.inWindow("late") && f.windowEntered("late") && f.windowExited("early"));
        swing.update(f, 0.5f);     // 1.25: past 'late'
        assertTrue(f.windowExited("late") && !f.inWindow("late"));
        assertEquals(1.25f, f.progress(), "progress goes on past 1");
    }

    /** A window callback on a state whose delay outlasts the window's start. */
    @dev.enginestates.fsm.StateBehavior("readme-delay")
    public static final class Delayed {
        @dev.enginestates.fsm.State(value = "Swing", initial = true, delay = 0.3f)
        public String swing(BuilderTour.Fighter f, float dt) {
            return null;
        }

        @dev.enginestates.fsm.StateWindow(state = "Swing", window = "early")
        public void early(BuilderTour.Fighter f) {
            f.log.add("early@" + f.timeInState());
        }

        @dev.enginestates.fsm.StateWindow(state = "Swing", window = "late")
        public void late(BuilderTour.Fighter f) {
            f.log.add("late@" + f.timeInState());
        }
    }

    @Test
    void aWindowCallbackRunsInRunStateAndAnEdgeCrossedDuringTheDelayIsNotRunLater() {
        var def = new StateMachineBuilder<BuilderTour.Fighter>()
                .registerHandlers(Delayed.class)
                .configureState("Swing").duration(1f).window("early", 0.1f, 0.2f).window("late", 0.5f, 0.6f)
                .build();
        var f = new BuilderTour.Fighter();
        var fsm = new StateMachine<>(def);
        fsm.initialize(f);
        for (int i = 0; i < 10; i++) {
            fsm.advance(f, 0.1f);
            if (i == 4) {
                assertEquals(List.of(), f.log, "advance alone runs no callback, though it crossed late's start");
            }
            fsm.runState(f, 0.1f);
        }
        assertEquals(List.of("late@0.5"), f.log, "'early' opened at 0.1 s, inside the 0.3 s delay: never run");
    }

    @Test
    void everyTourFileHasCodeTheReadmeOrTheDocsShow() throws IOException {
        // a tour file no block of the README or docs/ draws on would be compiled for nothing (and a new style's tour forgotten)
        java.util.Set<String> shown = new java.util.HashSet<>();
        for (Path page : Pages.all()) {
            for (String block : Pages.javaBlocks(page)) {
                for (String line : block.split("\n")) {
                    shown.add(normal(line));
                }
            }
        }
        List<String> files = new ArrayList<>();
        for (Path f : Pages.compiledFiles()) {
            String name = f.getFileName().toString();
            if (List.of("ReadmeCodeTest.java", "DocsCodeTest.java", "Pages.java").contains(name)) {
                continue;
            }
            files.add(name);
            long lines = Files.readAllLines(f).stream().map(ReadmeCodeTest::normal)
                    .filter(l -> l.length() > 20 && !l.startsWith("import ") && !l.startsWith("*") && !l.startsWith("/"))
                    .filter(shown::contains).count();
            assertTrue(lines >= 3, name + " has " + lines + " lines the README or docs/ show; a tour is their code");
        }
        assertTrue(files.containsAll(List.of("Tour.java", "PolledTour.java", "BuilderTour.java", "TypedTour.java", "ReadmeKitTest.java",
                "BuilderReadmeKitTest.java", "TypedReadmeKitTest.java", "StreamTour.java")), files.toString());
    }

    @Test
    void theTourDoesWhatTheReadmeSays() {
        assertEquals(1.0, Tour.tour(), 1e-9, "RESUME brings the guard back with one second left");
        assertEquals("breather", Tour.plain());
        assertTrue(Tour.saves(), "the checkpoint restored into another world reads back the same");
        Tour.ecs();
    }

    @Test
    void theStreamTourDoesWhatTheReadmeSays() throws IOException {
        StreamTour.Seen seen = StreamTour.tour();
        assertEquals(1, seen.aliceAnswering, "alice's page finds the guard answering the bell by its tag");
        assertEquals("talking", seen.aliceTalk, "the talk is hers");
        assertFalse(seen.bobSeesHero, "bob's page never hears of the hero, whose only machine is alice's talk");
        assertTrue(seen.repeated.contains("frame 2 comes after frame 2 was applied"), seen.repeated);
        // the streaming page prints alice's second frame as the stream writes it (laid out)
        String readme = Pages.text(root().resolve("docs/streaming.md"));
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        String pretty = json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(seen.secondFrame)).replace("\r\n", "\n");
        // the stream's id is drawn at random: the README prints one, the frame has its own
        String stream = json.readTree(seen.secondFrame).path("stream").asText();
        assertTrue(stream.matches("[0-9a-f]{16}"), "a stream id of 16 hexadecimal digits: " + stream);
        pretty = pretty.replace("\"stream\" : \"" + stream + "\"", "\"stream\" : \"3f9a61c2d7e4b805\"");
        assertTrue(readme.contains("```json\n" + pretty + "\n```"), "docs/streaming.md prints the frame as the stream writes it:\n" + pretty);
    }

    @Test
    void theTypedTourDoesWhatTheReadmeSays() throws IOException {
        List<Object> read = TypedTour.tour();
        assertEquals(List.of(1, true, TypedTour.GuardState.ANSWER, "PATROL.WATCH", false), read.subList(0, 5));
        String typo = (String) read.get(5);
        String readme = Pages.text(root().resolve("docs/typed-names.md"));
        assertTrue(readme.contains("`" + typo + "`"), "docs/typed-names.md quotes the message of matches(\"PATROL.WACH\"): " + typo);
        assertTrue(typo.endsWith("did you mean 'PATROL.WATCH'?"), typo);
        assertEquals(1.0, (double) read.get(6), 1e-9, "RESUME brings him back with one second left");
        assertEquals(List.of(true, "ANSWER"), TypedTour.plain());
        // the error the README prints for a constant declared twice, one never declared and an event no state takes
        String invalid = TypedTour.invalid();
        assertTrue(invalid.startsWith("machine 'guard' is invalid: 3 problems"), invalid);
        assertTrue(readme.replace("\r\n", "\n").contains("```\n" + invalid.replace("\r\n", "\n") + "\n```"),
                "docs/typed-names.md prints the message as the compiler writes it:\n" + invalid);
    }

    @Test
    void theSiegeAsDeclaredInTheReadmeCountsItsWaves() {
        dev.enginestates.plain.StateMachine<Tour.Siege> siege = new dev.enginestates.plain.StateMachine<>(Tour.SIEGE_MACHINE);
        siege.send("START");
        siege.send("WAVE_HELD");
        assertEquals(1, siege.context().wave);
        assertFalse(siege.matches("fight"));
        assertEquals(Map.of(), Map.of());
    }

    @Test
    void theScxmlTourDoesWhatTheReadmeSays() {
        assertEquals(List.of("open", "closed", "open", 2.0), ScxmlTour.tour());
    }
}
