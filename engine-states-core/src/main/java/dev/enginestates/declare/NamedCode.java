package dev.enginestates.declare;

/** The wrappers behind {@link Named}'s factories: each forwards every call to the code it names. */
final class NamedCode {
    private NamedCode() {
    }

    record NamedGuard<C>(String name, SelfGuard<C> implementation) implements SelfGuard<C>, Named {
        @Override
        public boolean test(C context, Event event, Self self) {
            return implementation.test(context, event, self);
        }

        @Override
        public String toString() {
            return "guard " + name;
        }
    }

    record NamedAction<C>(String name, SelfAction<C> implementation) implements SelfAction<C>, Named {
        @Override
        public void run(C context, Event event, Self self) {
            implementation.run(context, event, self);
        }

        @Override
        public String toString() {
            return "action " + name;
        }
    }

    record NamedSeconds<C>(String name, SelfSeconds<C> implementation) implements SelfSeconds<C>, Named {
        @Override
        public double of(C context, Event event, Self self) {
            return implementation.of(context, event, self);
        }

        @Override
        public String toString() {
            return "seconds " + name;
        }
    }
}
