package dev.enginestates.samples.docs;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pages of docs/ hold compiled code and working links: each Java block stands line for line,
 * in order, in the compiled sources under samples/.../readme and samples/.../docs; each
 * relative link of the README and of docs/ reaches a file, and its anchor a heading there; and
 * the code the pages show does what they say.
 */
class DocsCodeTest {
    /** The pages docs/ must have: one per concept, the glossary, the cheatsheet and the index. */
    private static final List<String> PAGES = List.of("README.md", "statecharts.md", "typed-names.md", "entities.md",
            "listeners.md", "self.md", "polled.md", "builder.md", "persistence.md", "rewind.md", "streaming.md", "xstate.md", "scxml.md",
            "diagrams.md", "devtools.md", "testing.md", "errors.md", "limits.md", "reliability.md", "performance.md", "api.md",
            "architecture.md", "artifacts.md", "glossary.md", "cheatsheet.md", "samples.md", "versions.md", "children.md", "metrics.md");

    @Test
    void everyJavaBlockOfEveryDocsPageStandsLineForLineInCompiledSources() {
        List<String> sources = Pages.compiledLines();
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path page : Pages.docs()) {
            List<String> java = Pages.javaBlocks(page);
            for (int i = 0; i < java.size(); i++) {
                blocks++;
                String missing = Pages.firstLineNotInSources(java.get(i), sources);
                if (missing != null) {
                    problems.add("docs/" + page.getFileName() + ", Java block " + (i + 1) + ": this line is not in the compiled"
                            + " sources of samples/.../readme or samples/.../docs (in order):\n    " + missing);
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(blocks >= 25, "the pages show their code: " + blocks + " Java blocks");
    }

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsReachesAFileAndItsHeading() {
        List<String> problems = new ArrayList<>();
        Path root = Pages.root();
        int checked = 0;
        for (Path page : Pages.all()) {
            for (String link : Pages.links(page)) {
                if (link.matches("[a-zA-Z][a-zA-Z+.-]*:.*")) {
                    continue;                        // http:, https:, mailto:: not ours to check offline
                }
                checked++;
                int hash = link.indexOf('#');
                String file = hash < 0 ? link : link.substring(0, hash);
                String anchor = hash < 0 ? null : link.substring(hash + 1);
                Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = root.relativize(page) + ": link '" + link + "'";
                if (!target.startsWith(root) || !Files.exists(target)) {
                    problems.add(where + " names no file of the repository (" + root.relativize(target.normalize()) + ")");
                } else if (anchor != null && target.toString().endsWith(".md") && !Pages.anchors(target).contains(anchor)) {
                    problems.add(where + ": " + root.relativize(target) + " has no heading '#" + anchor + "'; its headings: "
                            + Pages.anchors(target));
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(checked > 100, "the pages link to each other: " + checked + " links checked");
    }

    @Test
    void docsHasAPagePerConceptAndTheReadmeAndTheIndexLinkEveryPage() {
        Path root = Pages.root();
        List<String> have = Pages.docs().stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(have.containsAll(PAGES), "docs/ lacks " + PAGES.stream().filter(p -> !have.contains(p)).toList());
        String readme = Pages.text(root.resolve("README.md"));
        String index = Pages.text(root.resolve("docs/README.md"));
        for (String page : have) {
            if (!page.equals("README.md")) {
                assertTrue(readme.contains("](docs/" + page), "the README links docs/" + page);
                assertTrue(index.contains("](" + page), "docs/README.md links " + page);
            }
        }
    }

    @Test
    void theReadmeIsAFrontDoorOfAtMost300Lines() {
        long lines = Pages.text(Pages.root().resolve("README.md")).lines().count();
        assertTrue(lines <= 300, "README.md has " + lines + " lines; the rest belongs in docs/");
        assertTrue(Pages.text(Pages.root().resolve("README.md")).contains("## Add it to a project"));
    }

    @Test
    void noPageNamesAnInternalDocumentOrAnIssueNumber() {
        // what a user reads names features and styles; our own documents and issues mean nothing to them
        Pattern internal = Pattern.compile("\\b00[0-4]\\b|[Ii]ssue [0-9]");
        List<String> problems = new ArrayList<>();
        for (Path page : Pages.all()) {
            String[] lines = Pages.text(page).split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (internal.matcher(lines[i]).find()) {
                    problems.add(Pages.root().relativize(page) + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theVaultsGuardsAreReportedUntilThePathGeneratorIsGivenTheEventAndTheChangeTheyNeed() {
        List<List<dev.enginestates.testing.Unreached>> both = PathsWithGuards.unreachedWithoutAndWith();
        assertTrue(both.get(0).stream().anyMatch(u -> u.what().equals("locked \u2013CODE [rightCode]\u2192 open")
                && u.reason().contains("its guard 'rightCode' threw for the CODE events tried")), both.get(0).toString());
        assertEquals(List.of(), both.get(1));
    }

    @Test
    void theDoorAskedBeforeSendingAnswersAsThePageSays_andAskingRanNoAction() {
        assertEquals(List.of(false, true, List.of(), List.of("OPEN"), false, 0), AskBeforeSending.answers());
    }

    @Test
    void theCheatsheetsSentryMovesAlikeInTheThreeStyles() {
        assertEquals(List.of("sentry 1", "sentry-table 1", "sentry-fsm 1", "sentry watch", "sentry-table watch", "sentry-fsm watch"),
                Cheatsheet.sideBySide(), "one step after the intruder each is in alert; six seconds later each is back in watch");
    }

    @Test
    void theRandomGuardDrawsTheSameRoutesAfterItsCheckpointIsRestoredElsewhere() {
        String[] routes = RandomGuard.straightAndRestored();
        assertEquals(routes[0], routes[1], "the restored guards went on drawing what the straight run drew");
        assertTrue(routes[0].split(" ").length > 4, "they patrolled: " + routes[0]);
        String[] guards = routes[0].split("\\| ");
        assertFalse(guards[0].strip().equals(guards[1].strip()), "two guards, two streams: " + routes[0]);
    }

    @Test
    void theRollbackClientEndsAsTheWorldThatHeardTheBellOnTimeAndItsListenerHearsOneChange() {
        RollbackClient.Seen seen = RollbackClient.run();
        assertEquals("PATROL.WATCH", seen.clientBefore(), "without the bell it kept watching");
        assertEquals("ANSWER", seen.onTime());
        assertEquals(seen.onTime(), seen.clientAfter(), "after the late bell it is where the on-time world is");
        assertEquals(java.util.List.of("PATROL.WATCH -> ANSWER (rewind)"), seen.heard());
        assertTrue(seen.checkpointOfTick3().contains("\"steps\" : 3"), seen.checkpointOfTick3());
    }

    @Test
    void aRestartRestoresTheCheckpointIntoAnEmptyWorldBySpawningEachKey() {
        Restart.Seen seen = Restart.restart(1000);
        assertEquals(334, seen.answeringBefore(), "every third guard answered the bell");
        assertEquals(seen.answeringBefore(), seen.answeringAfter(), "as many answer after the restart");
        assertEquals(seen.secondsLeftBefore(), seen.secondsLeftAfter(), "a wait resumes with exactly its seconds left");
        assertTrue(seen.transformBack(), "the game's own component, added back by key");
        assertEquals(1, seen.bells(), "the context came back with the record");
    }

    @Test
    void aVersion1CheckpointRestoredByVersion2IsTheVersion1WorldSwappedLive() {
        Versions.Seen seen = Versions.restoreAndSwap();
        assertTrue(seen.olderSaved().contains("\"version\" : 1") && seen.olderSaved().contains("\"fingerprint\""),
                "the checkpoint names the version and the fingerprint: " + seen.olderSaved());
        java.util.Map<String, String> expected = java.util.Map.of("resting", "patrol.nap", "watching", "patrol.watch.look",
                "alarmed", "patrol.watch.look", "answering", "answer");
        assertEquals(expected, seen.restored(), "renamed, split, removed; the answer kept");
        assertEquals(expected, seen.swapped());
        assertEquals(4, seen.moved());
        assertTrue(seen.alike(), "the restored world's checkpoint is the swapped world's");
        assertEquals(seen.leftBefore(), seen.leftAfter(), "the split watch's wait went to look, with its seconds left");
        assertEquals(1, seen.calls(), "the bells became calls");
        assertEquals(List.of("resting: patrol.rest -> patrol.nap (swap)", "watching: patrol.watch -> patrol.watch.look (swap)",
                "alarmed: alarm -> patrol.watch.look (swap)"), seen.heard(), "the answering guard's state kept its path: not told");
    }

    @Test
    void anEditThatRenamesTheStateAGuardIsInIsRefusedAndTakenWithAMapping(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path shipped = Files.exists(Path.of("guard.json")) ? Path.of("guard.json") : Path.of("samples", "guard.json");
        assertEquals(List.of("REFUSED", "RELOADED", "PATROL.NAP"), HotReloadLoop.renameWhileResting(shipped, dir));
    }

    @Test
    void theDevtoolsPagesTestStartsWhereADownloadedCheckpointLeftTheRoom(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("checkpoint-tick-120.json");
        Files.writeString(file, DevtoolsTimeTravel.checkpointOfAnOpenDoor());
        assertEquals("shut", DevtoolsTestStart.startATestHere(file));
    }

    @Test
    void theChildMachinesPageDoesWhatItSays() {
        assertEquals("1 true fighting true 1 0", ChildMachines.siegeAndSquad(),
                "one wave won, the wave found by its tag, restored mid-fight, gone with its state; one member fallen, none left");
    }

    @Test
    void theInterestPageSendsEachPlayerTheGuardsNearItAndAWalkerTheGateWholeAndNotTheTower() {
        InterestArea.Walk walk = InterestArea.walk();
        String alice = walk.aliceFrames().get(0);
        String bob = walk.bobFrames().get(0);
        assertTrue(alice.contains("north gate"), alice);
        assertFalse(alice.contains("tower"), "not a byte of the tower for alice: " + alice);
        assertTrue(bob.contains("old tower"), bob);
        assertFalse(bob.contains("gate"), "not a byte of the gate for bob: " + bob);
        String walked = walk.bobFrames().get(1);
        assertTrue(walked.contains("\"whole\":false"), "a frame of changes: " + walked);
        assertTrue(walked.contains("\"gate\":{\"interest-guard\":{\"status\""), "the gate comes whole: " + walked);
        assertTrue(walked.contains("north gate"), walked);
        assertTrue(walked.contains("\"tower\":{\"interest-guard\":null}"), "the tower is removed: " + walked);
        assertFalse(walk.aliceFrames().get(1).contains("tower"), walk.aliceFrames().get(1));
        assertEquals(List.of("gate:answer"), walk.aliceHolds(), "alice's replica holds the gate, which answered the bell");
        assertEquals(List.of("gate:answer"), walk.bobHolds(), "bob's replica holds the gate and no longer the tower");
    }
}
