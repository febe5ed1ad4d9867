package dev.enginestates.devtools;

import dev.enginestates.io.Saves;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The page's time travel in a real browser, set up as {@link DevtoolsBrowserTest} is (headless
 * Chromium and the system's chromedriver; skipped, saying why, where they are missing, and failed
 * then when {@code ENGINE_STATES_BROWSER_TESTS=required}): the timeline and its filters, going
 * back to a kept tick, a record's diff, pause, step and resume, an event sent, and a checkpoint
 * downloaded and loaded in the test kit's {@link WorldFixture}. The world steps on this test's
 * thread; every wait is for what the page shows, with a generous guard.
 */
@Timeout(180)
class DevtoolsTimeTravelBrowserTest {
    private static final long WAIT_NANOS = Duration.ofSeconds(30).toNanos();
    private static final java.util.logging.Logger SELENIUM_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium");

    private static ChromeDriver browser;
    private static String missing;
    private static Path downloads;

    @BeforeAll
    static void startTheBrowser() throws Exception {
        if (!Files.isExecutable(DevtoolsBrowserTest.CHROMIUM) || !Files.isExecutable(DevtoolsBrowserTest.DRIVER)) {
            missing = "the devtools browser test needs Chromium at " + DevtoolsBrowserTest.CHROMIUM + " and chromedriver at "
                    + DevtoolsBrowserTest.DRIVER + " (Debian: apt-get install chromium chromium-driver; or -Ddevtools.chromium=..."
                    + " -Ddevtools.chromedriver=...)";
            if ("required".equals(System.getenv("ENGINE_STATES_BROWSER_TESTS"))) {
                fail("ENGINE_STATES_BROWSER_TESTS=required, but " + missing);
            }
            return;
        }
        SELENIUM_LOG.setLevel(java.util.logging.Level.SEVERE);
        System.setProperty("webdriver.chrome.driver", DevtoolsBrowserTest.DRIVER.toString());
        downloads = Files.createDirectories(Path.of("target", "devtools-downloads").toAbsolutePath());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(DevtoolsBrowserTest.CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1440,1000", "--force-device-scale-factor=1", "--lang=en-US");
        // "Download checkpoint" saves here without asking
        options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                "download.prompt_for_download", false));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DevtoolsBrowserTest.DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1440, 1000));
    }

    @BeforeEach
    void needsTheBrowser() {
        assumeTrue(missing == null, () -> "skipped: " + missing);
    }

    @AfterAll
    static void stopTheBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** The game's loop while the page catches up: {@code loop} on this thread until the page shows {@code what}. */
    private static void until(Runnable loop, String what, Supplier<Boolean> shown) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (true) {
            loop.run();
            try {
                if (shown.get()) {
                    return;
                }
            } catch (WebDriverException e) {
                // an element redrawn under us: look again
            }
            if (System.nanoTime() > deadline) {
                fail("the page did not show " + what + "; it shows:\n" + browser.findElement(By.tagName("body")).getText());
            }
            Thread.sleep(40);
        }
    }

    private static String text(String css) {
        Object t = browser.executeScript("const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css);
        return t == null ? null : t.toString().strip();
    }

    private static boolean present(String css) {
        return Boolean.TRUE.equals(browser.executeScript("return document.querySelector(arguments[0]) !== null;", css));
    }

    private static List<String> timeline() {
        List<String> out = new ArrayList<>();
        Object lines = browser.executeScript("return Array.from(document.querySelectorAll('#timeline-list li .what'), (li) => li.innerText);");
        for (Object line : (List<?>) lines) {
            out.add(line.toString().strip());
        }
        return out;
    }

    private static void type(String id, String value) {
        WebElement e = browser.findElement(By.id(id));
        e.clear();
        e.sendKeys(value);
    }

    /** Moves the scrub slider to the kept tick at {@code index}, as a drag does. */
    private static void scrubTo(int index) {
        browser.executeScript("const s = document.getElementById('scrub'); s.value = arguments[0];"
                + " s.dispatchEvent(new Event('input'));", index);
    }

    private static void open(Devtools devtools) throws InterruptedException {
        browser.get(devtools.address().toString());
        until(devtools::publish, "a live snapshot of the room", () -> "live".equals(text("#status")));
    }

    @Test
    void theTimelineShowsWhatHappenedFilteredByEntityAndMachine() throws Exception {
        try (Room room = new Room(); Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            open(devtools);
            Room.GUARD.send(room.guard1, "BELL");
            Room.SIEGE.send(room.world, "START");
            room.run(4);
            until(devtools::publish, "the bell in the timeline", () -> timeline().contains("guard-1 · guard: patrol.watch → answer on BELL"));
            assertTrue(timeline().contains("guard-3: held by Stunned"), timeline().toString());
            assertTrue(timeline().contains("guard-2 · guard: wait in patrol.watch ran out"), timeline().toString());

            type("tl-entity", "guard-2");
            until(devtools::publish, "guard-2's entries only", () -> !timeline().isEmpty() && timeline().stream().allMatch(t -> t.startsWith("guard-2 ")));
            assertTrue(timeline().contains("guard-2 · guard: patrol.watch → patrol.rest on states.wait"), timeline().toString());

            type("tl-entity", "");
            type("tl-machine", "siege");
            until(devtools::publish, "the siege's entries only", () -> !timeline().isEmpty() && timeline().stream().allMatch(t -> t.startsWith("world · siege")));
            assertTrue(timeline().contains("world · siege: waiting → fight on START"), timeline().toString());
        }
    }

    @Test
    void scrubbingShowsTheRoomAsItWasWithItsDiffAndLiveComesBack() throws Exception {
        try (Room room = new Room(); Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0))) {
            open(devtools);
            // two kept ticks a bell apart: snapshots taken when the game asks, not by the wall clock
            room.run(1);
            devtools.snapshot();
            Room.GUARD.send(room.guard1, "BELL");
            room.run(1);
            devtools.snapshot();
            until(devtools::publish, "the three kept ticks", () -> text("#scrub-tick").contains("3 ticks kept, 0 to 120"));

            new Select(browser.findElement(By.id("entity-select"))).selectByValue("guard-1");
            until(devtools::publish, "guard-1 answering, live", () -> "guard: answer".equals(text("#records [data-record='guard'] .fact")));

            scrubTo(1);
            until(devtools::publish, "tick 60", () -> "tick 60".equals(text("#viewing")));
            assertEquals("guard: patrol.watch, 3 s left", text("#records [data-record='guard'] .fact"), "the inspector as it was");
            assertTrue(text("#clock").startsWith("t = 1 s · 60 steps"), text("#clock"));
            assertTrue(present("#diagram-body .state.active[data-path='patrol.watch']"), "the diagram as it was");
            assertTrue(present("[data-machine='guard'] li[data-path='patrol.watch'] > .n"), "the machines as they were");
            assertTrue(browser.executeScript("return Array.from(document.querySelectorAll('#fact-lines li'), (li) => li.innerText);")
                    .toString().contains("guard-1 · guard: patrol.watch, 3 s left"), "the facts as they were");

            room.run(1);
            devtools.publish();
            assertEquals("tick 60", text("#viewing"), "the live room waits behind Live while the page looks back");

            new Select(browser.findElement(By.id("diff-from"))).selectByValue("60");
            new Select(browser.findElement(By.id("diff-to"))).selectByValue("120");
            browser.findElement(By.id("diff-button")).click();
            until(devtools::publish, "the diff", () -> present("#diff-result tr[data-field='state']"));
            assertEquals("\"patrol.watch\"", text("#diff-result tr[data-field='state'] .before"));
            assertEquals("\"answer\"", text("#diff-result tr[data-field='state'] .after"));
            assertEquals("0", text("#diff-result tr[data-field='context.bells'] .before"));
            assertEquals("1", text("#diff-result tr[data-field='context.bells'] .after"));

            browser.findElement(By.id("live-button")).click();
            until(devtools::publish, "the live room again", () -> !browser.findElement(By.id("viewing")).isDisplayed()
                    && "guard: answer".equals(text("#records [data-record='guard'] .fact")));
        }
    }

    @Test
    void pauseStepAndResumeHoldTheGamesLoopFromThePage() throws Exception {
        try (Room room = new Room();
             Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true).interval(Duration.ZERO))) {
            Runnable loop = () -> devtools.step(Room.DT);
            browser.get(devtools.address().toString());
            until(loop, "the loop running", () -> "running".equals(text("#loop-state")));

            browser.findElement(By.id("pause-button")).click();
            until(loop, "the loop paused", () -> text("#loop-state").startsWith("paused at tick"));
            long at = room.world.steps();
            for (int i = 0; i < 20; i++) {
                loop.run();
            }
            assertEquals(at, room.world.steps(), "paused: the game's loop does not step the world");
            assertTrue(devtools.isPaused());

            browser.findElement(By.id("step-button")).click();
            until(loop, "one step taken", () -> ("paused at tick " + (at + 1)).equals(text("#loop-state")));
            for (int i = 0; i < 20; i++) {
                loop.run();
            }
            assertEquals(at + 1, room.world.steps(), "exactly one step per click");

            browser.findElement(By.id("resume-button")).click();
            until(loop, "the loop running again", () -> "running".equals(text("#loop-state")));
            assertTrue(room.world.steps() > at + 1);
        }
    }

    @Test
    void anEventSentFromThePageMovesTheMachineAndAnUnknownOneIsRefused() throws Exception {
        try (Room room = new Room();
             Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true).interval(Duration.ZERO))) {
            open(devtools);
            new Select(browser.findElement(By.id("entity-select"))).selectByValue("guard-2");
            until(devtools::publish, "the event form for guard-2", () -> browser.findElement(By.id("event-form")).isDisplayed()
                    && "guard".equals(new Select(browser.findElement(By.id("event-machine"))).getFirstSelectedOption().getText()));

            type("event-name", "FIRE");
            browser.findElement(By.id("event-button")).click();
            until(devtools::publish, "the refusal", () -> text("#event-result").startsWith("refused:"));
            assertTrue(text("#event-result").contains("takes no event 'FIRE'; expected one of [BELL"), text("#event-result"));
            assertEquals("patrol.watch", Room.GUARD.read(room.guard2).state(), "nothing changed");

            type("event-name", "BELL");
            browser.findElement(By.id("event-button")).click();
            until(devtools::publish, "the event sent", () -> "sent: guard: answer".equals(text("#event-result")));
            assertEquals("answer", Room.GUARD.read(room.guard2).state());
            assertEquals(1, Room.GUARD.read(room.guard2).context().bells, "its actions ran");
            until(devtools::publish, "guard-2 answering", () -> "guard: answer".equals(text("#records [data-record='guard'] .fact")));
        }
    }

    @Test
    void aCheckpointDownloadedFromAKeptTickStartsATestInAWorldFixture() throws Exception {
        try (Room room = new Room(); Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0))) {
            room.world.despawn(room.weapon); // a checkpoint names entities by key: the room's keyed ones
            open(devtools);
            Room.GUARD.send(room.guard1, "BELL");
            room.run(2.5);
            devtools.snapshot();
            until(devtools::publish, "tick 150 kept", () -> text("#scrub-tick").contains("to 150"));
            scrubTo(1);
            until(devtools::publish, "tick 150", () -> "tick 150".equals(text("#viewing")));
            assertEquals("tick 150", text("#download-note"));

            Path file = downloads.resolve("checkpoint-tick-150.json");
            Files.deleteIfExists(file);
            browser.findElement(By.id("download")).click();
            until(devtools::publish, "the downloaded file", () -> Files.exists(file) && file.toFile().length() > 0);

            // "start a test here": the test kit's fixture loads the file as its start
            try (WorldFixture fixture = WorldFixture.fixedStep(Room.DT)) {
                fixture.open();
                fixture.restore(Saves.of(Room.SIEGE, Room.GUARD, Room.BOT), file);
                assertEquals(150, fixture.steps());
                assertEquals("answer", Room.GUARD.read(fixture.world().entity("guard-1")).state());
                assertEquals(1, Room.GUARD.read(fixture.world().entity("guard-1")).context().bells);
                assertEquals("patrol.watch", Room.GUARD.read(fixture.world().entity("guard-2")).state());
                assertEquals(1.5, Room.GUARD.read(fixture.world().entity("guard-2")).secondsLeft(), 1e-9);
                fixture.advance(1.5);
                assertEquals("patrol.rest", Room.GUARD.read(fixture.world().entity("guard-2")).state(), "and it steps on from there");
                assertFalse(fixture.world().entity("guard-3") == null);
            }
        }
    }
}
