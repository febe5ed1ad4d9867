package dev.enginestates.samples.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.Cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** A node of the rooms cluster: its configuration, its journal's tables, its share of the rooms. */
public final class RoomNode {
    private RoomNode() {
    }

    /**
     * The node's configuration: {@code rooms.conf} over Pekko's defaults, with the journal's database.
     *
     * @param jdbcUrl the journal's and snapshot store's database, such as {@code jdbc:h2:mem:rooms;DB_CLOSE_DELAY=-1}
     * @return the configuration
     */
    public static Config config(String jdbcUrl) {
        return ConfigFactory.parseResources("rooms.conf")
                .withFallback(ConfigFactory.empty().withValue("rooms.jdbc-url", ConfigValueFactory.fromAnyRef(jdbcUrl)))
                .withFallback(ConfigFactory.load())
                .resolve();
    }

    /**
     * Creates the JDBC plugin's tables in an H2 database if they are not there (the plugin's own H2 script).
     *
     * @param jdbcUrl the database
     * @throws SQLException if the database refuses them
     */
    public static void createTables(String jdbcUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "sa", ""); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM 'classpath:/schema/h2/h2-create-schema.sql'");
        }
    }

    /**
     * Starts this node's share of the rooms: cluster sharding places rooms here and moves them away.
     *
     * @param system     the node's actor system, a cluster member (or about to join)
     * @param definition what rooms hold
     * @param probe      told of recoveries and written steps
     * @return the node's shard region, where any room's commands go
     */
    public static ActorRef<ShardingEnvelope<RoomEntity.Command>> start(ActorSystem<?> system, RoomDefinition definition, RoomProbe probe) {
        String node = Cluster.get(system).selfMember().address().toString();
        return ClusterSharding.get(system).init(Entity.of(RoomEntity.TYPE_KEY,
                        ctx -> RoomEntity.create(ctx.getEntityId(), definition, probe, node))
                .withStopMessage(RoomEntity.Passivate.INSTANCE));
    }
}
