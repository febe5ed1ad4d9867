package dev.enginestates.scxml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

/**
 * The SCION and W3C SCXML tests of {@code @scion-scxml/test-framework} 2.0.16: fetched with
 * {@code npm pack} into {@code target/scxml-suite}, checked against the pinned integrity,
 * extracted there; nothing of it is committed. Runs one test as its JSON expects.
 */
final class ScxmlSuite {
    static final String PACKAGE = "@scion-scxml/test-framework@2.0.16";
    static final String INTEGRITY =
            "sha512-5rRd5CdFLUzmPaO43NSamBmhq6uW/0kUmUneEnqRSbAj0FiFVAINd1DfadUkdECT+xHLARCJZU7meQD4nqYyKw==";
    static final Path DIR = Path.of("target/scxml-suite");
    static final Path TESTS = DIR.resolve("package/test");
    /** How long a W3C test may run on the virtual clock, after its events, before it counts as stuck. */
    static final double W3C_LIMIT = 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScxmlSuite() {
    }

    /** Fetches and extracts the package; a reason when it cannot (no npm, no network), else null. */
    static String fetch() {
        if (Files.isDirectory(TESTS)) {
            return null;
        }
        try {
            Files.createDirectories(DIR);
            Process p = new ProcessBuilder("npm", "pack", PACKAGE, "--silent")
                    .directory(DIR.toFile()).redirectErrorStream(true).redirectOutput(DIR.resolve("npm.log").toFile()).start();
            if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroy();
                return "npm pack " + PACKAGE + " failed: " + Files.readString(DIR.resolve("npm.log")).strip();
            }
            Path tgz = DIR.resolve("scion-scxml-test-framework-2.0.16.tgz");
            String integrity = "sha512-" + Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("SHA-512").digest(Files.readAllBytes(tgz)));
            if (!integrity.equals(INTEGRITY)) {
                throw new IllegalStateException(tgz + " has integrity " + integrity + ", expected " + INTEGRITY);
            }
            untar(tgz, DIR);
            return null;
        } catch (IOException e) {
            return "npm is not available: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A gzipped tar's regular files (npm's own archives: ustar, no links). */
    static void untar(Path tgz, Path into) throws IOException {
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(tgz)))) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512) {
                String name = cString(header, 0, 100);
                if (name.isEmpty()) {
                    break;
                }
                String prefix = cString(header, 345, 155);
                if (!prefix.isEmpty()) {
                    name = prefix + "/" + name;
                }
                long size = Long.parseLong(cString(header, 124, 12).trim(), 8);
                byte type = header[156];
                byte[] body = in.readNBytes((int) size);
                in.skipNBytes((512 - size % 512) % 512);
                Path out = into.resolve(name).normalize();
                if (!out.startsWith(into.normalize())) {
                    throw new IOException("tar entry outside the target: " + name);
                }
                if (type == '0' || type == 0) {
                    Files.createDirectories(out.getParent());
                    Files.write(out, body);
                }
            }
        }
    }

    private static String cString(byte[] b, int off, int len) {
        int end = off;
        while (end < off + len && b[end] != 0) {
            end++;
        }
        return new String(b, off, end - off, StandardCharsets.US_ASCII);
    }

    /** Every test of the package: {@code dir/name} relative to package/test (ext tests as ../test-ext/...). */
    static List<String> all() throws IOException {
        List<String> out = new ArrayList<>();
        for (Path root : List.of(TESTS, DIR.resolve("package/test-ext"))) {
            try (var files = Files.walk(root)) {
                for (Path f : files.filter(f -> f.toString().endsWith(".scxml")).sorted().collect(Collectors.toList())) {
                    String rel = TESTS.relativize(f).toString();
                    rel = rel.substring(0, rel.length() - ".scxml".length());
                    if (rel.matches("w3c-ecma/test\\d+sub\\d+")) {
                        continue; // an <invoke src> child, not a test
                    }
                    out.add(rel);
                }
            }
        }
        return out;
    }

    /** Runs one test; null when it passes, else what went wrong. */
    static String run(String test) {
        Path scxml = TESTS.resolve(test + ".scxml");
        Path json = TESTS.resolve(test + ".json");
        try {
            if (test.equals("w3c-ecma/test301.txml")) {
                // manual: the processor must refuse the document (its <script src> cannot be loaded)
                try {
                    ScxmlImport.create().read(scxml);
                    return "imported, but the document must be refused";
                } catch (InvalidMachineException expected) {
                    return null;
                }
            }
            if (test.equals("w3c-ecma/test415.txml")) {
                // manual: the initial state is a top-level final, so the machine halts at once (event1 unprocessed)
                StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().log((l, v) -> { }).read(scxml));
                return m.isDone() && leaves(m).equals(Set.of("final")) ? null : "not halted in 'final': " + leaves(m);
            }
            if (!Files.exists(json)) {
                return "no expectation (.json) shipped";
            }
            boolean w3c = test.startsWith("w3c-ecma/");
            Machine<Datamodel> machine = ScxmlImport.create().log((label, value) -> { }).resolver(ScxmlResolver.files(ScxmlSuite.TESTS)).read(scxml);
            JsonNode expect = JSON.readTree(json.toFile());
            StateMachine<Datamodel> m = new StateMachine<>(machine);
            if (!w3c) {
                String bad = compare("start", expect.get("initialConfiguration"), m);
                if (bad != null) {
                    return bad;
                }
            }
            int i = 0;
            for (JsonNode e : expect.get("events")) {
                i++;
                if (e.has("after")) {
                    advance(m, e.get("after").asDouble() / 1000);
                }
                String name = e.get("event").get("name").asText();
                if (!name.isEmpty() && !m.isDone()) {
                    m.send(Event.of(name));
                }
                if (!w3c) {
                    String bad = compare("event " + i + " '" + name + "'", e.get("nextConfiguration"), m);
                    if (bad != null) {
                        return bad;
                    }
                }
            }
            if (w3c) {
                advance(m, W3C_LIMIT); // idle: the clock jumps from one pending send to the next
                Set<String> leaves = leaves(m);
                return leaves.equals(Set.of("pass")) ? null : "ended in " + leaves;
            }
            return null;
        } catch (Exception | StackOverflowError e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /**
     * The virtual clock: {@code seconds} pass, the clock jumping to each pending send's due time in
     * turn (the engine delivers a send when its machine's clock reaches it), never by the wall clock.
     */
    static void advance(StateMachine<Datamodel> m, double seconds) {
        MachineRecord r = Access.record(m);
        double end = m.totalTime() + seconds;
        for (int jumps = 0; jumps < 100_000 && !m.isDone(); jumps++) {
            double now = m.totalTime();
            double due = r.nextSendDue();
            if (due > end) {
                if (end > now) {
                    m.step(end - now);
                }
                return;
            }
            m.step(Math.max(due - now, 0));
        }
    }

    private static Set<String> leaves(StateMachine<Datamodel> m) {
        return m.leaves().stream().map(ScxmlImport::stateId).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String compare(String when, JsonNode expected, StateMachine<Datamodel> m) {
        Set<String> want = new TreeSet<>();
        expected.forEach(n -> want.add(n.asText()));
        Set<String> got = leaves(m);
        return got.equals(want) ? null : "after " + when + ": expected " + want + ", got " + got;
    }
}
