package dev.enginestates.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each sample is a runnable program: its main runs to the end and prints what its class comment says. */
class SamplesRunTest {
    interface Program {
        void main() throws Exception;
    }

    private static String run(Program p) throws Exception {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            p.main();
        } finally {
            System.setOut(before);
        }
        return out.toString(StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    private static void assertPrints(String output, String... lines) {
        for (String line : lines) {
            assertTrue(output.contains(line), () -> "expected the output to contain\n" + line + "\nbut it was\n" + output);
        }
    }

    @Test
    void weapon() throws Exception {
        assertPrints(run(() -> WeaponSample.main(new String[0])),
                "1.25  bang     reload       0      6  1.50\n2.75  bang     cooldown     5      7  0.25\n",
                "11 shots in 4 s of held trigger (one every 0.25 s, a 1.5 s reload after 6); ready with 6 rounds\n");
    }

    @Test
    void siege() throws Exception {
        assertPrints(run(() -> SiegeSample.main(new String[0])),
                " 20.00  breather wave 1, 12 s left\n 32.00  fight    wave 1\n",
                "106.00  over     wave 3\n",
                "the siege is over after 3 waves and 6360 steps; world.query(SIEGE.is(\"over\")) finds 1 entity, the world's own\n");
    }

    @Test
    void guard() throws Exception {
        assertPrints(run(() -> GuardSample.main(new String[0])),
                "   5  patrol.watch (1.00 s left)   patrol.rest (8.00 s left)    patrol.watch (4.00 s left)       2    1      0\n",
                "bells answered: ada 1, bo 1, cy 1\n");
    }

    @Test
    void gameMode() throws Exception {
        assertPrints(run(() -> GameModeSample.main(new String[0])),
                "  5.00  round.playing                players 2  red 0 blue 0\n",
                " 15.00  over                         players 2  red 3 blue 1  last winner red\n");
    }

    @Test
    void door() throws Exception {
        assertPrints(run(() -> DoorSample.main(new String[0])),
                " 4.50  blocked    closing       0.33  0.50\n 4.75             opening       0.33  0.50\n",
                "the door opened 2 times and is closed\n");
    }

    @Test
    void rider() throws Exception {
        assertPrints(run(() -> RiderSample.main(new String[0])),
                " 3.52  tam  stalled  at   9.7 m, 0.50 m/s\n",
                "rue is sliding at 52.1 m; tam is sliding at 34.4 m\n");
    }

    @Test
    void npcRoutine() throws Exception {
        assertPrints(run(() -> NpcRoutineSample.main(new String[0])),
                "  9  yes      knead   2.00 s left (held)  fed     1.00 s left\n",
                "the talk held the routine 7 s: 12 loaves baked; hunger ran on and is hungry\n");
    }

    @Test
    void replay(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("log.json");
        String out = run(() -> ReplaySample.main(new String[] {"42", log.toString()}));
        assertPrints(out, "seed 42: at 1.233 s (step 74) player-3 pulled the trigger with 4 of 6 rounds and nothing happened",
                "replayed into a fresh world: the records are identical\n", "  step 71: RELOAD (taken)\n");
        assertTrue(Files.readString(log).contains("\"format\" : \"engine-states/inputs\""));
    }
}
