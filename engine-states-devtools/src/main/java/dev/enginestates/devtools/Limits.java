package dev.enginestates.devtools;

/**
 * How much the devtools server gives its clients: how many connections at once, how many of them
 * may wait on the game, and how long each part of a request may take. A client that is slow or
 * never finishes holds one connection for a bounded time, and never the others.
 * {@link #DEFAULT} is what {@link Devtools#serve} uses; the README states its numbers.
 */
final class Limits {
    /** 64 connections, 16 long polls, 8 hand-set states waiting, 5 s for a request's head and 5 s for its body, 10 s for the answer. */
    static final Limits DEFAULT = new Limits(64, 16, 8, 5_000, 5_000, 10_000);

    /** The request line and headers together, in bytes: a browser sends a few hundred. */
    static final int MAX_HEAD_BYTES = 8 * 1024;
    /** A request body (a hand-set state), in bytes. */
    static final int MAX_BODY_BYTES = 64 * 1024;

    /** Connections open at once; beyond it, a new one pushes out the oldest still sending its head, or is refused. */
    final int connections;
    /** Snapshot requests waiting at once for a newer snapshot; beyond it, one that would wait is answered 503 at once. */
    final int longPolls;
    /** Hand-set states waiting at once for the game's publish; beyond it, one is answered 503 at once. */
    final int handSets;
    /** From the connection's accept to the end of its headers. */
    final long headMillis;
    /** From the end of the headers to the end of the body. */
    final long bodyMillis;
    /** For the client to take the whole answer. */
    final long answerMillis;

    Limits(int connections, int longPolls, int handSets, long headMillis, long bodyMillis, long answerMillis) {
        if (connections < 1 || longPolls < 0 || handSets < 0 || headMillis < 1 || bodyMillis < 1 || answerMillis < 1) {
            throw new IllegalArgumentException("devtools limits: at least one connection and a positive time for each part of a"
                    + " request; got " + connections + " connections, " + longPolls + " long polls, " + handSets + " hand sets, "
                    + headMillis + "/" + bodyMillis + "/" + answerMillis + " ms");
        }
        this.connections = connections;
        this.longPolls = longPolls;
        this.handSets = handSets;
        this.headMillis = headMillis;
        this.bodyMillis = bodyMillis;
        this.answerMillis = answerMillis;
    }

    @Override
    public String toString() {
        return "Limits(" + connections + " connections, " + longPolls + " long polls, " + handSets + " hand sets, head "
                + headMillis + " ms, body " + bodyMillis + " ms, answer " + answerMillis + " ms)";
    }
}
