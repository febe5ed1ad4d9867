package dev.enginestates.pekko;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * While the game's service of who a player is stays down, every connection's check fails: the log
 * gets the first failure, then at most one each ten seconds saying how many it left out, not one
 * stack trace a request (a client retrying in a loop would otherwise fill the server's disk).
 */
class CheckFailuresLogTest {
    private final Logger logger = Logger.getLogger(RoomsWebSocket.class.getName());
    private final List<LogRecord> logged = Collections.synchronizedList(new ArrayList<>());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private boolean useParent;

    @BeforeEach
    void listen() {
        useParent = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false); // the test's run prints nothing
        logger.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(useParent);
    }

    @Test
    void failedChecksAreLoggedOnceThenAtMostOnceEachTenSecondsSayingHowManyWereLeftOut() {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        RoomsWebSocket.CheckFailures failures = new RoomsWebSocket.CheckFailures(clock::get);
        RuntimeException down = new IllegalStateException("the accounts service is down");

        for (int i = 0; i < 1_000; i++) {
            RoomsWebSocket.Verdict v = failures.refuse("r-1", down);
            assertNull(v.player(), "a failed check names no player");
            assertEquals(503, v.status().intValue());
            clock.addAndGet(1_000_000L); // a request a millisecond: one second in all
        }
        assertEquals(1, logged.size(), "a thousand failures in one second: the first logged only");
        assertEquals(Level.WARNING, logged.get(0).getLevel());
        assertEquals(down, logged.get(0).getThrown(), "the first carries the failure");

        clock.addAndGet(9_000_000_000L); // ten seconds after the first
        failures.refuse("r-2", down);
        assertEquals(2, logged.size(), "ten seconds on, the next failure is logged");
        assertTrue(logged.get(1).getMessage().contains("999 more since the last logged"), logged.get(1).getMessage());
        failures.refuse("r-2", down);
        assertEquals(2, logged.size(), "and the one right after it is not");
    }
}
