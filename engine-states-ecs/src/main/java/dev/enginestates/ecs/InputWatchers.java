package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;

import java.util.Arrays;

/**
 * The tools that watch a world's inputs beside its one recorder ({@link StateWorld#watchInputs}),
 * and the fan-out that tells the recorder first, then each watcher. With no watcher the world
 * tells its recorder directly, so a world without tools pays nothing for them.
 */
final class InputWatchers {
    private static final WorldInputs[] NONE = new WorldInputs[0];
    private WorldInputs[] all = NONE;

    void add(WorldInputs watcher) {
        all = Arrays.copyOf(all, all.length + 1);
        all[all.length - 1] = watcher;
    }

    boolean remove(WorldInputs watcher) {
        for (int i = 0; i < all.length; i++) {
            if (all[i] == watcher) {
                WorldInputs[] less = new WorldInputs[all.length - 1];
                System.arraycopy(all, 0, less, 0, i);
                System.arraycopy(all, i + 1, less, i, all.length - i - 1);
                all = less;
                return true;
            }
        }
        return false;
    }

    /** Who the world tells: the recorder alone while nothing watches, else a fan-out. */
    WorldInputs around(WorldInputs recorder) {
        if (all.length == 0) {
            return recorder;
        }
        WorldInputs[] to;
        if (recorder == null) {
            to = all.clone();
        } else {
            to = new WorldInputs[all.length + 1];
            to[0] = recorder;
            System.arraycopy(all, 0, to, 1, all.length);
        }
        return new FanOut(to);
    }

    /** Tells each input to every one of its listeners, the recorder first. */
    private static final class FanOut implements WorldInputs {
        private final WorldInputs[] to;

        FanOut(WorldInputs[] to) {
            this.to = to;
        }

        @Override
        public void spawned(Entity entity, StateRecord<?>[] records) {
            for (WorldInputs w : to) {
                w.spawned(entity, records);
            }
        }

        @Override
        public void swapped(States<?> from, States<?> too, dev.enginestates.declare.Migration mapping) {
            for (WorldInputs w : to) {
                w.swapped(from, too, mapping);
            }
        }

        @Override
        public void attached(Entity entity, StateRecord<?> record) {
            for (WorldInputs w : to) {
                w.attached(entity, record);
            }
        }

        @Override
        public void detached(Entity entity, States<?> machine) {
            for (WorldInputs w : to) {
                w.detached(entity, machine);
            }
        }

        @Override
        public void despawned(Entity entity) {
            for (WorldInputs w : to) {
                w.despawned(entity);
            }
        }

        @Override
        public void sent(StateRecord<?> record, Event event) {
            for (WorldInputs w : to) {
                w.sent(record, event);
            }
        }

        @Override
        public void sent(StateRecord<?> record, String event, Object[] args) {
            for (WorldInputs w : to) {
                w.sent(record, event, args);
            }
        }

        @Override
        public void went(StateRecord<?> record, String name) {
            for (WorldInputs w : to) {
                w.went(record, name);
            }
        }

        @Override
        public void stateSet(StateRecord<?> record, String[] paths) {
            for (WorldInputs w : to) {
                w.stateSet(record, paths);
            }
        }

        @Override
        public void edited(StateRecord<?> record) {
            for (WorldInputs w : to) {
                w.edited(record);
            }
        }

        @Override
        public void holdChanged(Entity entity, Class<?> component, boolean on) {
            for (WorldInputs w : to) {
                w.holdChanged(entity, component, on);
            }
        }

        @Override
        public void clockSet(double time, long steps) {
            for (WorldInputs w : to) {
                w.clockSet(time, steps);
            }
        }

        @Override
        public void stepped(double dt) {
            for (WorldInputs w : to) {
                w.stepped(dt);
            }
        }

        @Override
        public void advanced(double dt) {
            for (WorldInputs w : to) {
                w.advanced(dt);
            }
        }

        @Override
        public void ranStates() {
            for (WorldInputs w : to) {
                w.ranStates();
            }
        }
    }
}
