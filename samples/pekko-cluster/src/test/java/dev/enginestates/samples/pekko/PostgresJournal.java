package dev.enginestates.samples.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.enginestates.pekko.Rooms;
import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A new database for one test's journal and snapshots on the PostgreSQL server {@code ENGINE_STATES_POSTGRES_URL}
 * names (what {@code .ci/postgres} prints), with the plugin's tables; dropped on close, so the next run on the same
 * server (CI's JDK 25 pass) starts clean. Without the variable the test is skipped, saying what to set; with
 * {@code ENGINE_STATES_POSTGRES=required} (CI) it fails instead.
 */
final class PostgresJournal implements AutoCloseable {
    private static final Pattern URL = Pattern.compile("(jdbc:postgresql://[^/?]+/)([^?]*)(\\?.*)?");

    private final String server;
    private final String user;
    private final String password;
    private final String database;
    private final String url;
    /** The nodes' {@code engine-states.rooms.jdbc.*} settings for it. */
    final Config settings;

    private PostgresJournal(String server, String user, String password, String database, String url) {
        this.server = server;
        this.user = user;
        this.password = password;
        this.database = database;
        this.url = url;
        this.settings = ConfigFactory.parseMap(Map.of(
                "engine-states.rooms.jdbc.url", url,
                "engine-states.rooms.jdbc.user", user,
                "engine-states.rooms.jdbc.password", password,
                "engine-states.rooms.jdbc.profile", "slick.jdbc.PostgresProfile$",
                "engine-states.rooms.jdbc.driver", "org.postgresql.Driver"));
    }

    static PostgresJournal create() throws SQLException {
        String server = System.getenv("ENGINE_STATES_POSTGRES_URL");
        if (server == null || server.isBlank()) {
            String missing = "the failover test on PostgreSQL needs a server: set ENGINE_STATES_POSTGRES_URL to a database's JDBC URL,"
                    + " such as jdbc:postgresql://127.0.0.1:54329/rooms (.ci/postgres starts one on loopback and prints it);"
                    + " the user is postgres without a password unless ENGINE_STATES_POSTGRES_USER and ENGINE_STATES_POSTGRES_PASSWORD say otherwise";
            if ("required".equals(System.getenv("ENGINE_STATES_POSTGRES"))) {
                fail("ENGINE_STATES_POSTGRES=required, but " + missing);
            }
            Assumptions.abort(missing);
        }
        Matcher m = URL.matcher(server.trim());
        if (!m.matches()) {
            fail("ENGINE_STATES_POSTGRES_URL is '" + server + "'; expected a PostgreSQL JDBC URL such as jdbc:postgresql://127.0.0.1:54329/rooms");
        }
        String user = System.getenv().getOrDefault("ENGINE_STATES_POSTGRES_USER", "postgres");
        String password = System.getenv().getOrDefault("ENGINE_STATES_POSTGRES_PASSWORD", "");
        // a name PostgreSQL takes unquoted: lower case, under its 63 characters
        String database = "rooms_" + UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(server, user, password); Statement s = c.createStatement()) {
            s.execute("create database " + database);
        } catch (SQLException e) {
            throw new SQLException("the PostgreSQL server at " + server + " (ENGINE_STATES_POSTGRES_URL) refused a new database"
                    + " for the test, as user " + user + ": " + e.getMessage() + " (.ci/postgres starts one)", e);
        }
        String url = m.group(1) + database + (m.group(3) == null ? "" : m.group(3));
        Rooms.createPostgresTables(url, user, password);
        return new PostgresJournal(server, user, password, database, url);
    }

    /** The test's database, for nodes in other processes. */
    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    /**
     * A room's commands as its journal has them, in order: each {@code Applied} event's JSON (its seq, sender and
     * command), as Pekko's Jackson serializer wrote it (gzipped when large).
     */
    java.util.List<com.fasterxml.jackson.databind.JsonNode> applied(String persistenceId) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.List<com.fasterxml.jackson.databind.JsonNode> out = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, user, password);
             java.sql.PreparedStatement s = c.prepareStatement("select event_payload from event_journal where persistence_id = ?"
                     + " and event_ser_manifest like '%Applied' order by sequence_number")) {
            s.setString(1, persistenceId);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    byte[] bytes = r.getBytes(1);
                    if (bytes.length > 1 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
                        bytes = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(bytes)).readAllBytes();
                    }
                    out.add(json.readTree(bytes));
                }
            }
        }
        return out;
    }

    /** How many rooms have events in the journal. */
    long journaledRooms() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select count(distinct persistence_id) from event_journal where persistence_id like 'room|%'")) {
            r.next();
            return r.getLong(1);
        }
    }

    @Override
    public void close() throws SQLException {
        // "with (force)": a pool's connection the stopped nodes left behind would otherwise keep it
        try (Connection c = DriverManager.getConnection(server, user, password); Statement s = c.createStatement()) {
            s.execute("drop database if exists " + database + " with (force)");
        }
    }
}
