/**
 * Dominion ECS 0.9.0's engine with engine-states' patches, relocated to {@code dev.enginestates.dominion}.
 * Only the factory's package is exported; worlds are created by engine-states, and
 * {@code Dominion.create()} finds this engine through the provider below.
 */
module dev.enginestates.dominion {
    requires transitive dev.dominion.ecs.api;
    // upstream's IntStack and UnsafeFactory used sun.misc.Unsafe; patch 0011 removed them, -Pupstream still needs it
    requires static jdk.unsupported;
    // upstream's Logging configured java.util.logging itself; patch 0007 removed that, -Pupstream still needs it
    requires static java.logging;

    exports dev.enginestates.dominion;

    // named so that Dominion's API, which looks for the official engine's class name, takes it
    provides dev.dominion.ecs.api.Dominion.Factory
            with dev.enginestates.dominion.provider.dev.dominion.ecs.engine.EntityRepository.Factory;
}
