package dev.enginestates.samples.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.enginestates.pekko.Rooms;

/** A node of the rooms cluster: its configuration. */
public final class RoomNode {
    private RoomNode() {
    }

    /**
     * The node's configuration: {@code rooms.conf} (this node's host and port) over the library's
     * {@code engine-states-pekko.conf}, with the journal's database.
     *
     * @param jdbcUrl the journal's and snapshot store's database, such as {@code jdbc:h2:mem:rooms;DB_CLOSE_DELAY=-1}
     * @return the configuration
     */
    public static Config config(String jdbcUrl) {
        return config(ConfigFactory.empty().withValue("engine-states.rooms.jdbc.url", ConfigValueFactory.fromAnyRef(jdbcUrl)));
    }

    /**
     * The node's configuration with the journal's database given in full, such as PostgreSQL's.
     *
     * @param database its {@code engine-states.rooms.jdbc.*} settings: url, profile, driver, user, password
     * @return the configuration
     */
    public static Config config(Config database) {
        return Rooms.config(database.withFallback(ConfigFactory.parseResources("rooms.conf")));
    }
}
