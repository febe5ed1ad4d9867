package dev.enginestates.samples.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.enginestates.pekko.Room;
import dev.enginestates.pekko.RoomListener;
import dev.enginestates.pekko.Rooms;
import dev.enginestates.pekko.RoomsWebSocket;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.concat;
import static org.apache.pekko.http.javadsl.server.Directives.onSuccess;
import static org.apache.pekko.http.javadsl.server.Directives.path;
import static org.apache.pekko.http.javadsl.server.Directives.pathPrefix;

/**
 * A node of the rooms cluster in its own JVM, as {@link NodeProcess} starts it for the failover test across processes:
 * a game server's node (the guards' rooms, the players' WebSocket on loopback) plus what the test reads of it.
 *
 * <p>Arguments: the Artery port (0 for any), the seed node's address ({@code self} for the first node), the members
 * to wait for, the guards per room. The journal's database comes from {@code ROOMS_JDBC_URL}, {@code ROOMS_JDBC_USER}
 * and {@code ROOMS_JDBC_PASSWORD} (PostgreSQL). On standard output, one line each:
 * <ul>
 *   <li>{@code joined <address>} once this node is a member, then {@code ready <wsPort> <controlPort>} once every
 *       member is up and the rooms and the endpoints run;</li>
 *   <li>{@code recovered <room> <steps> <lastSeq> <nanos>} each time a room starts on this node (a moved room
 *       included), and {@code persisted <room> <steps>} each time a room's steps are in the journal.</li>
 * </ul>
 * The control endpoint, on 127.0.0.1 only and for the test, answers {@code GET /open/<room>},
 * {@code /status/<room>} ({@code <node> <incarnation> <steps> <midWait>}) and {@code /dump/<room>}
 * ({@code <steps>} on the first line, the dump after). The node ends when its standard input closes, so it never
 * outlives the test that started it.
 */
public final class RoomServerMain {
    private RoomServerMain() {
    }

    /**
     * Runs the node until its standard input closes.
     *
     * @param args the Artery port, the seed's address or {@code self}, the members to wait for, the guards per room
     * @throws Exception if the node cannot start
     */
    public static void main(String[] args) throws Exception {
        int arteryPort = Integer.parseInt(args[0]);
        String seed = args[1];
        int members = Integer.parseInt(args[2]);
        int guards = Integer.parseInt(args[3]);
        PrintStream out = System.out;

        Config database = ConfigFactory.parseMap(Map.of(
                "engine-states.rooms.jdbc.url", System.getenv("ROOMS_JDBC_URL"),
                "engine-states.rooms.jdbc.user", System.getenv().getOrDefault("ROOMS_JDBC_USER", "postgres"),
                "engine-states.rooms.jdbc.password", System.getenv().getOrDefault("ROOMS_JDBC_PASSWORD", ""),
                "engine-states.rooms.jdbc.profile", "slick.jdbc.PostgresProfile$",
                "engine-states.rooms.jdbc.driver", "org.postgresql.Driver"));
        Config config = RoomNode.config(database
                .withValue("pekko.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(arteryPort)));
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "rooms", config);
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(Join.create("self".equals(seed) ? cluster.selfMember().address() : AddressFromURIString.parse(seed)));
        while (cluster.selfMember().status() != MemberStatus.up()) {
            Thread.sleep(20);
        }
        out.println("joined " + cluster.selfMember().address());
        while (StreamSupport.stream(cluster.state().getMembers().spliterator(), false)
                .filter(m -> m.status() == MemberStatus.up()).count() < members) {
            Thread.sleep(20);
        }

        RoomListener listener = new RoomListener() {
            @Override
            public void recovered(String roomId, String node, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
                out.println("recovered " + roomId + " " + steps + " " + lastSeq + " " + recoveryNanos);
            }

            @Override
            public void stepsPersisted(String roomId, String node, long steps) {
                out.println("persisted " + roomId + " " + steps);
            }
        };
        Rooms<RoomInput> rooms = GuardRooms.start(system, guards, listener);
        int wsPort = RoomsWebSocket.bind(system, rooms, 0).toCompletableFuture().get(30, TimeUnit.SECONDS).localAddress().getPort();
        Rooms<RoomInput> asked = rooms.withAskTimeout(java.time.Duration.ofSeconds(20));
        Route control = concat(
                pathPrefix("open", () -> path(PathMatchers.segment(), id -> onSuccess(asked.open(id),
                        ack -> complete(Long.toString(ack.step()))))),
                pathPrefix("status", () -> path(PathMatchers.segment(), id -> onSuccess(asked.status(id),
                        s -> complete(s.node() + " " + s.incarnation() + " " + s.steps() + " " + s.midWait())))),
                pathPrefix("dump", () -> path(PathMatchers.segment(), id -> onSuccess(asked.dump(id),
                        d -> complete(d.steps() + "\n" + d.dump())))));
        int controlPort = Http.get(system).newServerAt("127.0.0.1", 0).bind(control).toCompletableFuture()
                .get(30, TimeUnit.SECONDS).localAddress().getPort();
        out.println("ready " + wsPort + " " + controlPort);

        drain(System.in);
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        System.exit(0);
    }

    private static void drain(InputStream in) {
        try {
            while (in.read() >= 0) {
                // nothing is said on it: it only tells the node when the test is gone
            }
        } catch (IOException e) {
            // the test is gone
        }
    }
}
