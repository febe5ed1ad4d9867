package dev.enginestates.dominion.provider.dev.dominion.ecs.engine;

import dev.dominion.ecs.api.Dominion;

/**
 * Makes {@link Dominion#create()} return the patched engine. Dominion's API looks its engine up as a
 * service ({@code Dominion.Factory}) and keeps the first provider whose class name contains
 * {@code dev.dominion.ecs.engine.EntityRepository$Factory}; the patched engine's own factory lives in
 * {@code dev.enginestates.dominion} and would never match. This package's name ends as that lookup
 * expects, without being the official engine's package (which would clash with its jar on the
 * module path). Declared in {@code module-info} and in {@code META-INF/services}.
 */
public final class EntityRepository {
    private EntityRepository() {
    }

    /** The service provider: the patched engine's factory under the name the API looks for. */
    public static final class Factory extends dev.enginestates.dominion.EntityRepository.Factory {
        /** Called by {@link java.util.ServiceLoader}. */
        public Factory() {
        }
    }
}
