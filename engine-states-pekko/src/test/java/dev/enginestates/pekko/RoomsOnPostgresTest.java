package dev.enginestates.pekko;

import java.sql.SQLException;

/**
 * {@link RoomsTest}'s promises with the journal and snapshots in PostgreSQL, the database a deployment shares between
 * its nodes: commands applied once, a room behind its clock catching up in bounded steps, and a room started on a new
 * node equal to its twin (its snapshot restored from PostgreSQL, the events after it replayed). Each test has a new
 * database on the server {@code ENGINE_STATES_POSTGRES_URL} names, dropped after it; without that variable the tests
 * are skipped, saying what to set, and with {@code ENGINE_STATES_POSTGRES=required} (CI) they fail instead.
 */
class RoomsOnPostgresTest extends RoomsTest {
    @Override
    Journal journal() throws SQLException {
        return Journal.postgres();
    }
}
