package dev.enginestates.samples.pekko;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A node of the rooms cluster in a JVM of its own ({@link RoomServerMain}), seen from the test that started it: what
 * its lines said (its address, its ports, its rooms' recoveries and persisted steps), its control endpoint, and its
 * end: closed (its standard input closes and it terminates) or killed with SIGKILL.
 */
final class NodeProcess implements AutoCloseable {
    /** A room that started on this node, as its line said. */
    record Recovery(String roomId, long steps, long lastSeq, long nanos, long atNanos) {
    }

    final String name;
    private final Process process;
    private final HttpClient http;
    private final CompletableFuture<String> joined = new CompletableFuture<>();
    private final CompletableFuture<int[]> ready = new CompletableFuture<>();
    /** Each room's steps this node had in the journal, by its last line. */
    final Map<String, Long> persisted = new ConcurrentHashMap<>();
    /** The rooms that started here, in order. */
    final List<Recovery> recoveries = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Path errors;

    private NodeProcess(String name, Process process, HttpClient http, Path errors) {
        this.name = name;
        this.process = process;
        this.http = http;
        this.errors = errors;
        Thread reader = new Thread(this::read, "node-" + name + "-lines");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a node: this JVM's java and class path, the database in the environment, what the node prints on
     * standard error kept in a file under {@code target/} for when a test fails.
     */
    static NodeProcess start(String name, int arteryPort, String seed, int members, int guards, Map<String, String> database,
                             HttpClient http) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow"); // Pekko reads fields through sun.misc.Unsafe
        }
        command.addAll(List.of("-cp", classPath, RoomServerMain.class.getName(), Integer.toString(arteryPort), seed,
                Integer.toString(members), Integer.toString(guards)));
        Path errors = Path.of("target", "node-" + name + ".err");
        Files.createDirectories(errors.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
        builder.environment().putAll(database);
        return new NodeProcess(name, builder.start(), http, errors);
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                String[] w = line.split(" ");
                switch (w[0]) {
                    case "joined" -> joined.complete(w[1]);
                    case "ready" -> ready.complete(new int[]{Integer.parseInt(w[1]), Integer.parseInt(w[2])});
                    case "persisted" -> persisted.merge(w[1], Long.parseLong(w[2]), Math::max);
                    case "recovered" -> recoveries.add(new Recovery(w[1], Long.parseLong(w[2]), Long.parseLong(w[3]),
                            Long.parseLong(w[4]), System.nanoTime()));
                    default -> {
                        // a line of something else on the class path: not the node's
                    }
                }
            }
        } catch (IOException e) {
            // the node is gone: its lines end
        }
        String why = "node " + name + " ended (exit " + (process.isAlive() ? "?" : process.exitValue()) + ") before it said so; "
                + "its standard error is in " + errors.toAbsolutePath() + ": " + tail();
        joined.completeExceptionally(new IllegalStateException(why));
        ready.completeExceptionally(new IllegalStateException(why));
    }

    private String tail() {
        try {
            String all = Files.readString(errors);
            return all.length() <= 2_000 ? all : "..." + all.substring(all.length() - 2_000);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** The node's cluster address, once it is a member. */
    String address(Duration within) throws Exception {
        return joined.get(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Its players' WebSocket port, once every member is up and the rooms run. */
    int webSocketPort(Duration within) throws Exception {
        return ready.get(within.toMillis(), TimeUnit.MILLISECONDS)[0];
    }

    /** Asks the control endpoint; a node that does not answer 200 fails the test, saying what it answered. */
    String ask(String what, String roomId) throws Exception {
        int port = ready.get(60, TimeUnit.SECONDS)[1];
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + what + "/" + roomId))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            fail("node " + name + " answered " + what + " " + roomId + " with " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** This node's recovery of the room, if it has one. */
    Recovery recovered(String roomId) {
        synchronized (recoveries) {
            for (Recovery r : recoveries) {
                if (r.roomId().equals(roomId)) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Kills the node with SIGKILL: nothing of it runs after, no leaving, no handing off. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            fail("node " + name + " still runs 30 s after SIGKILL");
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Ends the node: its standard input closes and it terminates; killed if it has not within 30 s. */
    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.getOutputStream().close();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "node " + name + (joined.isDone() && !joined.isCompletedExceptionally() ? " " + joined.getNow("") : "");
    }
}
