package dev.enginestates.pekko;

import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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
 * A test's own database for the rooms' journal and snapshots, with the plugin's tables: H2 in memory, or a new
 * database on the PostgreSQL server {@code ENGINE_STATES_POSTGRES_URL} names (dropped on close, so a second run on
 * the same server, such as CI's JDK 25 pass, starts clean).
 */
final class Journal implements AutoCloseable {
    /** Set to a server's JDBC URL, such as {@code jdbc:postgresql://127.0.0.1:54329/rooms} (what {@code .ci/postgres} prints). */
    static final String URL_VARIABLE = "ENGINE_STATES_POSTGRES_URL";
    private static final Pattern POSTGRES_URL = Pattern.compile("(jdbc:postgresql://[^/?]+/)([^?]*)(\\?.*)?");

    final String url;
    final String user;
    final String password;
    private final String profile;
    private final String driver;
    /** The server's own database and this one's name, to drop it; null for H2. */
    private final String serverUrl;
    private final String database;

    private Journal(String url, String user, String password, String profile, String driver, String serverUrl, String database) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.profile = profile;
        this.driver = driver;
        this.serverUrl = serverUrl;
        this.database = database;
    }

    /** A new in-memory H2 database with the plugin's tables. */
    static Journal h2() throws SQLException {
        String url = "jdbc:h2:mem:lamps-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        Rooms.createH2Tables(url);
        return new Journal(url, "sa", "", "slick.jdbc.H2Profile$", "org.h2.Driver", null, null);
    }

    /**
     * A new database on the PostgreSQL server {@code ENGINE_STATES_POSTGRES_URL} names, with the plugin's tables.
     * Without that variable the test is skipped, or fails when {@code ENGINE_STATES_POSTGRES=required} (CI).
     */
    static Journal postgres() throws SQLException {
        String server = System.getenv(URL_VARIABLE);
        if (server == null || server.isBlank()) {
            String missing = "the rooms' tests on PostgreSQL need a server: set " + URL_VARIABLE + " to a database's JDBC URL,"
                    + " such as jdbc:postgresql://127.0.0.1:54329/rooms (.ci/postgres starts one on loopback and prints it);"
                    + " the user is postgres without a password unless ENGINE_STATES_POSTGRES_USER and ENGINE_STATES_POSTGRES_PASSWORD say otherwise";
            if ("required".equals(System.getenv("ENGINE_STATES_POSTGRES"))) {
                fail("ENGINE_STATES_POSTGRES=required, but " + missing);
            }
            Assumptions.abort(missing);
        }
        Matcher m = POSTGRES_URL.matcher(server.trim());
        if (!m.matches()) {
            fail(URL_VARIABLE + " is '" + server + "'; expected a PostgreSQL JDBC URL such as jdbc:postgresql://127.0.0.1:54329/rooms");
        }
        String user = System.getenv().getOrDefault("ENGINE_STATES_POSTGRES_USER", "postgres");
        String password = System.getenv().getOrDefault("ENGINE_STATES_POSTGRES_PASSWORD", "");
        // a name PostgreSQL takes unquoted: lower case, under its 63 characters
        String database = "rooms_" + UUID.randomUUID().toString().replace("-", "").toLowerCase(Locale.ROOT);
        try (Connection c = DriverManager.getConnection(server, user, password); Statement s = c.createStatement()) {
            s.execute("create database " + database);
        } catch (SQLException e) {
            throw new SQLException("the PostgreSQL server at " + server + " (" + URL_VARIABLE + ") refused a new database for the test,"
                    + " as user " + user + ": " + e.getMessage() + " (.ci/postgres starts one)", e);
        }
        String url = m.group(1) + database + (m.group(3) == null ? "" : m.group(3));
        Rooms.createPostgresTables(url, user, password);
        return new Journal(url, user, password, "slick.jdbc.PostgresProfile$", "org.postgresql.Driver", server, database);
    }

    /** The node's settings for this database: {@code engine-states.rooms.jdbc.*}. */
    Map<String, Object> settings() {
        return Map.of(
                "engine-states.rooms.jdbc.url", url,
                "engine-states.rooms.jdbc.user", user,
                "engine-states.rooms.jdbc.password", password,
                "engine-states.rooms.jdbc.profile", profile,
                "engine-states.rooms.jdbc.driver", driver);
    }

    /** A count from the journal's database. */
    long count(String sql, String persistenceId) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, persistenceId);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (database != null) {
            // "with (force)": a pool's connection the stopped nodes left behind would otherwise keep it
            try (Connection c = DriverManager.getConnection(serverUrl, user, password); Statement s = c.createStatement()) {
                s.execute("drop database if exists " + database + " with (force)");
            }
        }
    }

    @Override
    public String toString() {
        return url;
    }
}
