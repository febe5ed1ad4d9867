package dev.enginestates.pekko;

import java.sql.SQLException;

/**
 * {@link RoomsRetentionTest}'s promises with the journal and snapshots in PostgreSQL: a room keeping two snapshots keeps
 * its rows bounded and every event after the oldest kept snapshot, a room recovered from the trimmed journal equals its
 * twin with a larger incarnation, and without the option nothing is deleted. Each test has a new database on the server
 * {@code ENGINE_STATES_POSTGRES_URL} names, dropped after it; without that variable the tests are skipped.
 */
class RoomsRetentionOnPostgresTest extends RoomsRetentionTest {
    @Override
    Journal journal() throws SQLException {
        return Journal.postgres();
    }
}
