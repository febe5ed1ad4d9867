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
                "   5  PATROL.WATCH (1.00 s left)   PATROL.REST (8.00 s left)    PATROL.WATCH (4.00 s left)       2    1      0\n",
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
    void enemyBrain() throws Exception {
        assertPrints(run(() -> EnemyBrainSample.main(new String[0])),
                "  4.00  sense  hit for 30\n  4.00  brain  combat.shoot > flinch  (hp 70, fire off)\n"
                        + "  4.20  brain  flinch > combat.shoot  (hp 70, fire on)\n",
                "  9.02  brain  combat.engage > search  (hp 70, fire off)\n 10.00  sense  forgets the player\n"
                        + " 15.02  brain  search > patrol  (hp 70, fire off)\n",
                " 19.50  sense  hit for 10 (dead swallows it)\n",
                "after 20 s the bot is dead with hp -30; dead's enter ran 1 time\n");
    }

    @Test
    void polledWeapon() throws Exception {
        assertPrints(run(() -> PolledWeaponSample.main(new String[0])),
                " 1.27  rifle       0  bang, reloading\n 2.77  rifle       5  reloaded, bang\n",
                " 5.00  shotgun     0  asked to reload: not in ready, ignored\n",
                " 6.50  rifle       6  reloaded\n",
                "rifle: 11 shots, ready with 6 rounds\nshotgun: 4 shots, ready with 2 rounds\n");
    }

    @Test
    void polledGameMode() throws Exception {
        assertPrints(run(() -> PolledGameModeSample.main(new String[0])),
                " 10.00  round.countdown  players 2\n 12.00    goal blue  not counted in round.countdown\n",
                " 24.02  over             players 2  red 3 blue 1, winner red\n 29.02  warmup           players 2\n"
                        + " 31.02  round.countdown  players 4\n",
                " 64.02  over             players 4  red 1 blue 2, winner blue\n 69.02  warmup           players 2\n");
    }

    @Test
    void polledDoor() throws Exception {
        assertPrints(run(() -> PolledDoorSample.main(new String[0])),
                " 5.02  closing  > stopped   openness 0.64\n 5.50  the doorway is clear\n"
                        + " 5.52  stopped  > closing   openness 0.64\n 6.00  closing  > closed    openness 0.00\n",
                " 7.30  opening  > closing   openness 0.40\n 7.60  closing  > closed    openness 0.00\n",
                "the door is closed, openness 0.00\n");
    }

    @Test
    void builderDoor() throws Exception {
        assertPrints(run(() -> BuilderDoorSample.main(new String[0])),
                " 0.48    29  north: open, please\n 0.50    30  north  Closed > Opening                  1     0\n",
                " 1.27    76  north  Opening > Open (46 ticks)         1     1\n",
                " 3.43   206  east   Closing > Closed (46 ticks)       0     0\n",
                "after 5 s: 3 closed, 0 open, 0 moving; a swing takes 46 ticks at 60 Hz (45 x 1/60f = 0.74999994f < 0.75f)\n");
    }

    @Test
    void builderCombo() throws Exception {
        assertPrints(run(() -> BuilderComboSample.main(new String[0])),
                " 0.23    14  Jab    press dropped (before the input window)\n 0.27    16  Jab    light hit for 8, the dummy staggers (hp 92)\n",
                " 0.50    30  Jab    press buffered for Cross\n 0.57    34  Cross  Cross (light), stamina 87\n",
                " 1.30    78  Hook   heavy hit for 25, the dummy goes down (hp 55)\n",
                " 1.50    90  Hook   press dropped (the finisher chains into nothing)\n 1.72   103  Idle   back to Idle\n",
                "dummy hp 47, stamina 67, 6.74 m walked and lunged\n");
    }

    @Test
    void builderBrain() throws Exception {
        assertPrints(run(() -> BuilderBrainSample.main(new String[0])),
                " 1.00  ada  kickoff > attack (attack 0.95, defend 0.10)\n",
                " 1.75  ada  strikes (0.7666666 s into attack)\n",
                " 3.60  bo   defend > defend (re-entered for the new runner)\n 3.68  ada  commits to the tackle (0.1 s into defend)\n",
                "bo ends in attack, 1.52 s into it\n");
    }

    @Test
    void builderMatch() throws Exception {
        assertPrints(run(() -> BuilderMatchSample.main(new String[0])),
                " 2.02   121  Countdown  1\n 3.02   181  Playing    GO     Countdown > Playing after 181 ticks\n",
                " 8.02   481  Goal       GOAL   Playing > Goal after 300 ticks\n 9.53   572  Countdown  GOAL   Goal > Countdown after 91 ticks\n",
                "24.10  1446  FullTime   12'    Playing > FullTime after 121 ticks\nfull time after 12.02 s of play and 1446 ticks: 2 goals\n");
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
