package dev.enginestates.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The subscriptions of a game's own actors on this node ({@link Rooms#subscribe}): for each
 * (room, player, subscriber) an actor here, subscribed in the subscriber's place, joins the room's
 * pieces ({@link FrameJoin}) and hands the subscriber whole {@link Rooms.Frame}s, a local message
 * that no cluster frame size bounds. It lives as long as the subscriber and its subscription.
 */
final class FrameJoiners {
    private static final System.Logger LOG = System.getLogger(FrameJoiners.class.getName());

    /** One subscription of a game's actor. */
    private record Key(String roomId, String player, ActorRef<Rooms.Frame> to) {
    }

    /** The subscriber ended. */
    private record SubscriberGone(ActorRef<?> to) {
    }

    /** The room's actor that sent the last pieces ended. */
    private record RoomGone(ActorRef<?> room) {
    }

    /** The subscription ended. */
    private enum Stop {
        INSTANCE
    }

    private final ActorSystem<?> system;
    private final ConcurrentMap<Key, ActorRef<Object>> joiners = new ConcurrentHashMap<>();
    private final AtomicLong names = new AtomicLong();

    FrameJoiners(ActorSystem<?> system) {
        this.system = system;
    }

    /**
     * The actor that joins this subscriber's frames of the room, made on first use; the same one
     * while it lives, so subscribing again does not subscribe twice.
     *
     * @param rooms  the rooms' handle, to subscribe again after a frame is dropped
     * @param roomId the room
     * @param player the player
     * @param to     the game's actor
     * @return the joiner, to subscribe to the room
     */
    ActorRef<FramePiece> of(Rooms<?> rooms, String roomId, String player, ActorRef<Rooms.Frame> to) {
        return joiners.computeIfAbsent(new Key(roomId, player, to), k -> system.systemActorOf(joiner(rooms, k),
                "room-frames-" + names.incrementAndGet(), Props.empty())).narrow();
    }

    /**
     * Ends a subscriber's joiner.
     *
     * @param roomId the room
     * @param player the player
     * @param to     the game's actor
     * @return the joiner to unsubscribe from the room; null when there was none
     */
    ActorRef<FramePiece> remove(String roomId, String player, ActorRef<Rooms.Frame> to) {
        ActorRef<Object> joiner = joiners.remove(new Key(roomId, player, to));
        if (joiner == null) {
            return null;
        }
        joiner.tell(Stop.INSTANCE);
        return joiner.narrow();
    }

    @SuppressWarnings("unchecked")
    private Behavior<Object> joiner(Rooms<?> rooms, Key key) {
        return Behaviors.setup(ctx -> {
            ActorRef<FramePiece> self = ctx.getSelf().narrow();
            ctx.watchWith(key.to(), new SubscriberGone(key.to()));
            FrameJoin join = new FrameJoin(key.roomId(), key.player());
            ActorRef<?>[] watched = {null};
            return Behaviors.receive(Object.class)
                    .onMessage(FramePiece.class, p -> {
                        if (p.room() != null && !p.room().equals(watched[0])) {
                            if (watched[0] != null) {
                                ctx.unwatch(watched[0]);
                            }
                            watched[0] = p.room();
                            ctx.watchWith((ActorRef<Object>) p.room(), new RoomGone(p.room()));
                        }
                        switch (join.add(p)) {
                            case WHOLE -> key.to().tell(join.whole());
                            case DROPPED -> rooms.subscribePieces(key.roomId(), key.player(), self);
                            case REFUSED -> {
                                LOG.log(System.Logger.Level.WARNING, join.refusal() + "; the subscription of " + key.to() + " ends");
                                joiners.remove(key, ctx.getSelf());
                                rooms.unsubscribePieces(key.roomId(), key.player(), self);
                                return Behaviors.stopped();
                            }
                            case WAITING -> {
                            }
                        }
                        return Behaviors.same();
                    })
                    .onMessage(RoomGone.class, g -> {
                        // the subscriber follows the room itself (it watches Frame.room()); a part-sent frame is only dropped
                        join.roomGone(g.room());
                        if (g.room().equals(watched[0])) {
                            watched[0] = null;
                        }
                        return Behaviors.same();
                    })
                    .onMessage(SubscriberGone.class, g -> {
                        // the room watches this actor: it forgets the subscription once it stops
                        joiners.remove(key, ctx.getSelf());
                        return Behaviors.stopped();
                    })
                    .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
                    .build();
        });
    }
}
