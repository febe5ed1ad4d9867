package dev.enginestates.devtools;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The devtools page in a real browser: headless Chromium, driven by Selenium through the
 * system's chromedriver, against a world that steps on this test's thread (the world's), which
 * publishes while it waits for the page. Skipped, saying why, where Chromium or its driver is
 * missing; CI sets {@code ENGINE_STATES_BROWSER_TESTS=required}, and then a missing browser fails
 * the build instead. Selenium Manager is never asked: both paths are given, so nothing is
 * downloaded. The page's screenshot is saved as {@code target/devtools-screenshot.png}.
 */
@Timeout(180)
class DevtoolsBrowserTest {
    static final Path CHROMIUM = Path.of(System.getProperty("devtools.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("devtools.chromedriver", "/usr/bin/chromedriver"));
    private static final long WAIT_NANOS = Duration.ofSeconds(30).toNanos();

    /** Held here so the level set on it stays (java.util.logging keeps loggers weakly). */
    private static final java.util.logging.Logger SELENIUM_LOG = java.util.logging.Logger.getLogger("org.openqa.selenium");

    private static ChromeDriver browser;

    /** Why the browser cannot run here, or {@code null} when it can. */
    private static String missing;

    @BeforeAll
    static void startTheBrowser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
            missing = "the devtools browser test needs Chromium at " + CHROMIUM + " and chromedriver at " + DRIVER
                    + " (Debian: apt-get install chromium chromium-driver; or -Ddevtools.chromium=... -Ddevtools.chromedriver=...)";
            if ("required".equals(System.getenv("ENGINE_STATES_BROWSER_TESTS"))) {
                fail("ENGINE_STATES_BROWSER_TESTS=required, but " + missing);
            }
            return;
        }
        // Selenium warns through java.util.logging that it has no CDP classes for this Chromium; this test uses WebDriver only
        SELENIUM_LOG.setLevel(java.util.logging.Level.SEVERE);
        System.setProperty("webdriver.chrome.driver", DRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1440,1000", "--force-device-scale-factor=1", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().window().setSize(new Dimension(1440, 1000));
    }

    /** Each test is reported skipped, with the reason, where there is no browser. */
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

    /** The game's loop while the page catches up: publishes on this thread until the page shows {@code what}. */
    private static void until(Devtools devtools, String what, Supplier<Boolean> shown) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (true) {
            devtools.publish();
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

    // Read in one script each, so a snapshot that redraws the page between two calls cannot hand us a stale element.

    /** The text the first element {@code css} finds shows (stripped), or {@code null}. */
    private static String text(String css) {
        Object t = browser.executeScript("const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css);
        return t == null ? null : t.toString().strip();
    }

    private static boolean present(String css) {
        return Boolean.TRUE.equals(browser.executeScript("return document.querySelector(arguments[0]) !== null;", css));
    }

    private static List<String> facts() {
        List<String> out = new ArrayList<>();
        Object lines = browser.executeScript("return Array.from(document.querySelectorAll('#fact-lines li'), (li) => li.innerText);");
        for (Object line : (List<?>) lines) {
            out.add(line.toString().strip());
        }
        return out;
    }

    private static void open(Devtools devtools) throws InterruptedException {
        browser.get(devtools.address().toString());
        until(devtools, "a live snapshot of the room", () -> "live".equals(text("#status")) && "world room".equals(text("#world-name")));
    }

    @Test
    void thePageShowsTheMachinesTheInspectorTheFactsAndTheDiagram() throws Exception {
        try (Room room = new Room(); Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            room.run(1);
            open(devtools);
            until(devtools, "the clock after one second", () -> text("#clock").startsWith("t = 1 s · 60 steps"));

            // the machine list: each machine, its states as a tree, the entities holding it, the world's state
            assertEquals("world's: siege: waiting", text("[data-machine='siege'] .world-state"));
            assertEquals(null, text("[data-machine='guard'] .world-state"), "the world's own entity holds no guard");
            assertEquals("watch ×3", text("[data-machine='guard'] li[data-path='patrol.watch'] > span:first-child")
                    + " " + text("[data-machine='guard'] li[data-path='patrol.watch'] > .n").strip(), "three guards watch, guard-3 held");
            assertEquals(List.of("guard-1", "guard-2", "guard-3"), browser.executeScript(
                    "return Array.from(document.querySelectorAll(\"[data-machine='guard'] .holders a\"), (a) => a.innerText);"));
            assertTrue(present("[data-machine='weapon'] li[data-path='armed'] li[data-path='armed.weapon']"), "the tree nests");

            // the inspector: the world's own entity first
            assertEquals("siege: waiting", text("#records [data-record='siege'] .fact"));
            new Select(browser.findElement(By.id("entity-select"))).selectByValue("guard-3");
            until(devtools, "guard-3 in the inspector", () -> "guard: patrol.watch, held, 4 s left".equals(text("#records [data-record='guard'] .fact")));
            assertEquals("held", text("#records [data-record='guard'] .held"));
            assertEquals("0 s", text("#records [data-record='guard'] .waited"));
            assertEquals("4 s", text("#records [data-record='guard'] .left"));
            assertTrue(text("#records [data-record='guard'] .context").contains("\"bells\": 0"), text("#records [data-record='guard'] .context"));

            // the diagram: the selected entity's machine, its active states highlighted
            assertEquals("guard", new Select(browser.findElement(By.id("diagram-machine"))).getFirstSelectedOption().getText());
            assertTrue(present("#diagram-body .state.active[data-path='patrol']"));
            assertTrue(present("#diagram-body .state.active[data-path='patrol.watch']"));
            assertFalse(present("#diagram-body .state.active[data-path='answer']"));
            assertEquals("history (deep)", text("#diagram-body [data-path='patrol.resumed'] .kind"));
            assertTrue(text("#diagram-body [data-path='patrol.watch'] .moves").startsWith("after 4 s → patrol.rest"));

            // a parallel state's regions side by side, each with its active state
            new Select(browser.findElement(By.id("entity-select"))).selectByValue("weapon#1");
            until(devtools, "the weapon's diagram", () -> "weapon".equals(
                    new Select(browser.findElement(By.id("diagram-machine"))).getFirstSelectedOption().getText()));
            assertTrue(present("#diagram-body .state.parallel.active[data-path='armed'] > .kids.parallel > .state.active[data-path='armed.weapon']"));
            assertTrue(present("#diagram-body .kids.parallel > .state.active[data-path='armed.move'] .state.active[data-path='armed.move.walk']"));
            assertFalse(present("#diagram-body .state.active[data-path='armed.move.run']"));
            assertFalse(present("#diagram-body .state.active[data-path='down']"));

            // the fact lines: one per machine on each entity
            assertEquals(List.of("world · siege: waiting", "guard-1 · guard: patrol.watch, 3 s left", "guard-2 · guard: patrol.watch, 3 s left",
                    "guard-3 · guard: patrol.watch, held, 4 s left", "weapon#1 · weapon: armed.weapon.ready + armed.move.walk",
                    "bot-1 · bot: idle"), facts());
            assertFalse(browser.findElement(By.id("set-form")).isDisplayed(), "a read-only page offers no way to set a state");
        }
    }

    @Test
    void thePageFollowsTheWorldWhileItSteps() throws Exception {
        try (Room room = new Room(); Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            open(devtools);
            assertEquals("siege: waiting", text("#records [data-record='siege'] .fact"));
            assertTrue(present("#diagram-body .state.active[data-path='waiting']"));
            Room.SIEGE.send(room.world, "START");
            Room.SIEGE.send(room.world, "WAVE_HELD");
            for (int i = 0; i < 240; i++) {
                room.world.step(Room.DT);
                devtools.publish();
            }
            // 003: 'The AI tree says the state as a fact, such as "siege: breather, 8 s left"'
            until(devtools, "the siege's breather with 8 s left", () -> facts().contains("world · siege: breather, 8 s left"));
            assertEquals("siege: breather, 8 s left", text("#records [data-record='siege'] .fact"));
            assertTrue(present("#diagram-body .state.active[data-path='breather']"));
            assertFalse(present("#diagram-body .state.active[data-path='waiting']"));
            assertEquals("world's: siege: breather, 8 s left", text("[data-machine='siege'] .world-state"));
            assertEquals("breather", text("#records [data-record='siege'] .waiting"));
            assertEquals("4 s", text("#records [data-record='siege'] .waited"));
            assertEquals("t = 4 s · 240 steps", text("#clock").substring(0, "t = 4 s · 240 steps".length()));
        }
    }

    @Test
    void aStateSetByHandOnThePageMovesTheMachineAndATagNameIsRefused() throws Exception {
        try (Room room = new Room();
             Devtools devtools = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true).interval(Duration.ZERO))) {
            Room.GUARD.send(room.guard1, "BELL");
            room.run(2.5);
            open(devtools);
            new Select(browser.findElement(By.id("entity-select"))).selectByValue("guard-2");
            until(devtools, "guard-2 in the inspector", () -> text("#records [data-record='guard'] .fact").startsWith("guard: patrol.watch"));
            assertTrue(browser.findElement(By.id("set-form")).isDisplayed(), "a writable page offers to set a state");
            assertEquals("guard", new Select(browser.findElement(By.id("set-machine"))).getFirstSelectedOption().getText());

            // 003: "a tool that names a tag rather than the state is refused"
            WebElement state = browser.findElement(By.id("set-state"));
            state.sendKeys("guard.answer");
            browser.findElement(By.id("set-button")).click();
            until(devtools, "the refusal", () -> text("#set-result").startsWith("refused:"));
            assertTrue(text("#set-result").contains("'guard.answer' names the tag of state 'answer'"), text("#set-result"));
            assertEquals("patrol.watch", Room.GUARD.read(room.guard2).state(), "nothing changed");

            state.clear();
            state.sendKeys("answer");
            browser.findElement(By.id("set-button")).click();
            until(devtools, "the state set", () -> "set: guard: answer".equals(text("#set-result")));
            assertEquals("answer", Room.GUARD.read(room.guard2).state());
            until(devtools, "guard-2 in answer", () -> "guard: answer".equals(text("#records [data-record='guard'] .fact")));
            assertTrue(present("#diagram-body .state.active[data-path='answer']"));
            assertFalse(present("#diagram-body .state.active[data-path='patrol']"));
            assertFalse(room.world.query(Room.GUARD.is("answer")).list().contains(room.guard2), "its tags move at the next step");
            room.world.step(Room.DT);
            assertTrue(room.world.query(Room.GUARD.is("answer")).list().contains(room.guard2), "at its start");
            until(devtools, "two guards answering in the tree", () -> "×2".equals(text("[data-machine='guard'] li[data-path='answer'] > .n")));

            // the README's picture: the siege in its breather too
            Room.SIEGE.send(room.world, "START");
            Room.SIEGE.send(room.world, "WAVE_HELD");
            for (int i = 0; i < 210; i++) {
                room.world.step(Room.DT);
                devtools.publish();
            }
            until(devtools, "the siege's breather", () -> facts().contains("world · siege: breather, 8.5 s left"));
            screenshot();
        }
    }

    /** The page as a test artifact: target/devtools-screenshot.png (the README's picture is one of these). */
    private static void screenshot() throws Exception {
        File shot = browser.getScreenshotAs(OutputType.FILE);
        Path out = Path.of("target", "devtools-screenshot.png");
        Files.createDirectories(out.getParent());
        Files.copy(shot.toPath(), out, StandardCopyOption.REPLACE_EXISTING);
        assertTrue(Files.size(out) > 10_000, "a screenshot of the page, not an empty one");
    }
}
