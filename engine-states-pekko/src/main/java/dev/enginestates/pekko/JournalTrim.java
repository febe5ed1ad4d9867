package dev.enginestates.pekko;

import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.ReceiveTimeout;
import org.apache.pekko.persistence.AbstractPersistentActor;
import org.apache.pekko.persistence.DeleteMessagesFailure;
import org.apache.pekko.persistence.DeleteMessagesSuccess;
import org.apache.pekko.persistence.DeleteSnapshotsFailure;
import org.apache.pekko.persistence.DeleteSnapshotsSuccess;
import org.apache.pekko.persistence.Recovery;
import org.apache.pekko.persistence.RecoveryCompleted;
import org.apache.pekko.persistence.SnapshotSelectionCriteria;

import java.time.Duration;

/**
 * Deletes what a room's oldest kept snapshot covers: the room's events up to that snapshot's
 * sequence number, then the snapshots before it; then stops. One runs at a time per room, as a
 * child of the room's actor ({@link RoomKind#keepSnapshots}).
 *
 * <p>Pekko's typed persistence deletes only on its own event-count cadence, while a room's
 * snapshots follow its steps; a classic persistent actor of the room's id may delete any range.
 * It writes nothing and reads nothing of the journal but its highest sequence number
 * ({@link Recovery#none()}), so the room stays the only writer.
 */
final class JournalTrim extends AbstractPersistentActor {
    private static final System.Logger LOG = System.getLogger(JournalTrim.class.getName());
    /** A journal or snapshot store that does not answer within this is left alone until the room's next snapshot. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final String persistenceId;
    /** The oldest kept snapshot's sequence number: the events up to it and the snapshots before it go. */
    private final long upTo;

    private JournalTrim(String persistenceId, long upTo) {
        this.persistenceId = persistenceId;
        this.upTo = upTo;
    }

    static Props props(String persistenceId, long upTo) {
        return Props.create(JournalTrim.class, () -> new JournalTrim(persistenceId, upTo));
    }

    @Override
    public String persistenceId() {
        return persistenceId;
    }

    @Override
    public Recovery recovery() {
        return Recovery.none();
    }

    @Override
    public void preStart() throws Exception {
        super.preStart();
        getContext().setReceiveTimeout(PATIENCE);
    }

    @Override
    public Receive createReceiveRecover() {
        return receiveBuilder()
                .match(RecoveryCompleted.class, done -> deleteMessages(upTo))
                .build();
    }

    @Override
    public Receive createReceive() {
        return receiveBuilder()
                .match(DeleteMessagesSuccess.class, done -> deleteSnapshots(SnapshotSelectionCriteria.create(upTo - 1, Long.MAX_VALUE)))
                .match(DeleteSnapshotsSuccess.class, done -> getContext().stop(getSelf()))
                .match(DeleteMessagesFailure.class, failed -> giveUp("its events up to " + upTo, failed.cause()))
                .match(DeleteSnapshotsFailure.class, failed -> giveUp("its snapshots before " + upTo, failed.cause()))
                .match(ReceiveTimeout.class, late -> giveUp("what its snapshot at " + upTo + " covers",
                        new IllegalStateException("no answer within " + PATIENCE.toSeconds() + " s")))
                .build();
    }

    @Override
    public void onRecoveryFailure(Throwable cause, scala.Option<Object> event) {
        LOG.log(System.Logger.Level.WARNING, "room " + persistenceId + ": the journal's highest sequence number could not be read, so"
                + " nothing is deleted now; the room's next snapshot tries again", cause);
    }

    private void giveUp(String what, Throwable cause) {
        // what stays is covered by the kept snapshots: the room's next snapshot deletes it with the rest
        LOG.log(System.Logger.Level.WARNING, "room " + persistenceId + ": could not delete " + what
                + "; the room's next snapshot tries again", cause);
        getContext().stop(getSelf());
    }
}
