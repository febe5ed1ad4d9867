package dev.enginestates.ecs;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.EntityRepository;

import java.util.Arrays;

/**
 * Moves an entity's tags to match its record in one Dominion composition move per
 * transition (removing the tags of the states left and adding those of the states entered),
 * with the move prepared once per distinct change and cached: preparing is what costs in
 * Dominion, applying a prepared move is cheap. A move allocates nothing: the tag components of a
 * prepared move are fixed, kept with it, and handed to Dominion's {@code modifyEntity(prepared,
 * entity, added)} (patch 0013), which makes no modifier object per move.
 *
 * <p>One per machine per world (a prepared move belongs to one Dominion).
 */
final class TagMoves {
    private static final int MAX_ADDED_PER_MOVE = 8;

    private final EntityRepository dominion;
    private final States<?> states;
    private final int[] adds;
    private final int[] removes;
    private int addCount;
    private int removeCount;
    private Move[] table = new Move[64];
    private int entries;
    /**
     * By slot (the record's place in its {@link Binding}): which states' tags the record's entity
     * carries, bit {@code s % 64} of word {@code slot * stride + s / 64}. Kept here rather than in
     * each record: one word a record for a chart of up to 64 states, and no array per record.
     */
    private long[] tagged = new long[16];
    /** Words a slot: one for a chart of up to 64 states. */
    private final int stride;
    /** For a chart of up to 64 states: bit {@code s} set when state {@code s} has a tag (never the root's). */
    private final long tagMask;
    /**
     * The move applied last, found again without a lookup: the records a step moves often make the
     * same change one after another (a thousand waits ending together, a wave of guards alerted).
     */
    private Move last;

    /** One prepared change: the states whose tags are added and removed, and Dominion's modifiers for it. */
    private static final class Move {
        final long hash;
        final int[] adds;
        final int[] removes;
        final Composition.Modifier[] modifiers;
        /** The tag components each modifier adds, in the order of its types (read by Dominion, never changed). */
        final Object[][] added;
        /** For a chart of up to 64 states: the same change as bits of the states added and removed, else 0. */
        final long addBits;
        final long removeBits;

        Move(long hash, int[] adds, int[] removes, Composition.Modifier[] modifiers, Object[][] added) {
            this.hash = hash;
            this.adds = adds;
            this.removes = removes;
            this.modifiers = modifiers;
            this.added = added;
            this.addBits = bits(adds);
            this.removeBits = bits(removes);
        }

        private static long bits(int[] states) {
            long b = 0;
            for (int s : states) {
                b |= s < 64 ? 1L << s : 0; // only read for charts of up to 64 states
            }
            return b;
        }
    }

    TagMoves(Dominion dominion, States<?> states) {
        this.dominion = (EntityRepository) dominion; // a StateWorld is only ever over the patched engine
        this.states = states;
        this.adds = new int[states.chart().size];
        this.removes = new int[states.chart().size];
        this.stride = (states.chart().size + 63) >>> 6;
        this.tagged = new long[16 * stride];
        long mask = 0;
        StateTag[] tags = states.tagInstances();
        for (int s = 1; s < tags.length && s < 64; s++) {
            mask |= tags[s] != null ? 1L << s : 0;
        }
        this.tagMask = mask;
    }

    private boolean isTagged(int base, int s) {
        return (tagged[base + (s >>> 6)] >>> s & 1) != 0;
    }

    private void setTagged(int base, int s, boolean on) {
        if (on) {
            tagged[base + (s >>> 6)] |= 1L << s;
        } else {
            tagged[base + (s >>> 6)] &= ~(1L << s);
        }
    }

    /** The first word of a slot's bits, the array grown to hold it. */
    private int base(int slot) {
        int base = slot * stride;
        if (base + stride > tagged.length) {
            tagged = Arrays.copyOf(tagged, Math.max(tagged.length * 2, base + stride));
        }
        return base;
    }

    /** A record spawned with its entity: the entity carries the tags of its active states from the start. */
    void spawned(EntityRecord<?> r) {
        int base = base(r.slot);
        StateTag[] tags = states.tagInstances();
        for (int s = 1; s < tags.length; s++) {
            setTagged(base, s, tags[s] != null && r.isActive(s));
        }
    }

    /** A slot was freed (its record left the world): it carries no tags. */
    void forget(int slot) {
        int base = slot * stride;
        if (base < tagged.length) {
            Arrays.fill(tagged, base, base + stride, 0L);
        }
    }

    /** The binding closed up its holes: the record in slot {@code from} is now in slot {@code to} (below it). */
    void moved(int from, int to) {
        int f = from * stride;
        if (f < tagged.length) {
            System.arraycopy(tagged, f, tagged, to * stride, stride);
            Arrays.fill(tagged, f, f + stride, 0L);
        }
    }

    /** A rewind put the records in another order: the record in slot {@code old} is now in {@code newSlot[old]} (or gone, -1). */
    void relayout(int[] newSlot, int end, int slots) {
        long[] next = new long[Math.max(16, slots) * stride];
        for (int old = 0; old < end; old++) {
            int to = newSlot[old];
            if (to >= 0 && old * stride < tagged.length) {
                System.arraycopy(tagged, old * stride, next, to * stride, stride);
            }
        }
        tagged = next;
    }

    /** Brings the entity's tags in line with the record; returns whether anything moved. */
    boolean apply(Entity entity, EntityRecord<?> r) {
        int base = base(r.slot);
        if (stride == 1) {
            return applyWord(entity, r, base);
        }
        addCount = 0;
        removeCount = 0;
        StateTag[] tags = states.tagInstances();
        for (int s = 1; s < tags.length; s++) {
            if (tags[s] == null) {
                continue;
            }
            boolean active = r.isActive(s);
            boolean on = isTagged(base, s);
            if (active && !on) {
                adds[addCount++] = s;
            } else if (!active && on) {
                removes[removeCount++] = s;
            }
        }
        if (addCount == 0 && removeCount == 0) {
            return false;
        }
        Move move = find();
        if (move == null) {
            move = prepare();
        }
        Composition.Modifier[] modifiers = move.modifiers;
        for (int k = 0; k < modifiers.length; k++) {
            dominion.modifyEntity(modifiers[k], entity, move.added[k]);
        }
        for (int i = 0; i < addCount; i++) {
            setTagged(base, adds[i], true);
        }
        for (int i = 0; i < removeCount; i++) {
            setTagged(base, removes[i], false);
        }
        return true;
    }

    /**
     * {@link #apply} for a chart of up to 64 states, in whole words: the tags wanted are the active
     * states' bits, the change is two masks, and the move is the last one's when it is the same.
     */
    private boolean applyWord(Entity entity, EntityRecord<?> r, int base) {
        long want = r.activeBits() & tagMask;
        long have = tagged[base];
        if (want == have) {
            return false;
        }
        long add = want & ~have;
        long remove = have & ~want;
        Move move = last;
        if (move == null || move.addBits != add || move.removeBits != remove) {
            addCount = 0;
            removeCount = 0;
            for (long b = add; b != 0; b &= b - 1) {
                adds[addCount++] = Long.numberOfTrailingZeros(b);
            }
            for (long b = remove; b != 0; b &= b - 1) {
                removes[removeCount++] = Long.numberOfTrailingZeros(b);
            }
            move = find();
            if (move == null) {
                move = prepare();
            }
            last = move;
        }
        Composition.Modifier[] modifiers = move.modifiers;
        for (int k = 0; k < modifiers.length; k++) {
            dominion.modifyEntity(modifiers[k], entity, move.added[k]);
        }
        tagged[base] = want;
        return true;
    }

    /** Removes every tag the record's entity has (the record leaves the entity). */
    void removeAll(Entity entity, EntityRecord<?> r) {
        int base = base(r.slot);
        StateTag[] tags = states.tagInstances();
        for (int s = 1; s < tags.length; s++) {
            if (tags[s] != null && isTagged(base, s)) {
                entity.removeType(tags[s].getClass());
                setTagged(base, s, false);
            }
        }
    }

    private long hash() {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < addCount; i++) {
            h = (h ^ adds[i]) * 0x100000001b3L;
        }
        h = (h ^ 0xffff) * 0x100000001b3L;
        for (int i = 0; i < removeCount; i++) {
            h = (h ^ removes[i]) * 0x100000001b3L;
        }
        return h;
    }

    private Move find() {
        long h = hash();
        int mask = table.length - 1;
        for (int i = (int) (h ^ (h >>> 32)) & mask; table[i] != null; i = (i + 1) & mask) {
            Move m = table[i];
            if (m.hash == h && same(m.adds, adds, addCount) && same(m.removes, removes, removeCount)) {
                return m;
            }
        }
        return null;
    }

    private static boolean same(int[] stored, int[] current, int n) {
        if (stored.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (stored[i] != current[i]) {
                return false;
            }
        }
        return true;
    }

    private Move prepare() {
        StateTag[] tags = states.tagInstances();
        Class<?>[] removed = new Class<?>[removeCount];
        for (int i = 0; i < removeCount; i++) {
            removed[i] = tags[removes[i]].getClass();
        }
        int chunks = Math.max(1, (addCount + MAX_ADDED_PER_MOVE - 1) / MAX_ADDED_PER_MOVE);
        Composition.Modifier[] modifiers = new Composition.Modifier[chunks];
        Object[][] components = new Object[chunks][];
        for (int k = 0; k < chunks; k++) {
            int from = k * MAX_ADDED_PER_MOVE;
            int n = Math.min(MAX_ADDED_PER_MOVE, addCount - from);
            Class<?>[] added = new Class<?>[n];
            components[k] = new Object[n];
            for (int i = 0; i < n; i++) {
                added[i] = tags[adds[from + i]].getClass();
                components[k][i] = tags[adds[from + i]];
            }
            modifiers[k] = prepared(added, k == 0 ? removed : new Class<?>[0]);
        }
        Move move = new Move(hash(), Arrays.copyOf(adds, addCount), Arrays.copyOf(removes, removeCount), modifiers, components);
        if (entries * 2 >= table.length) {
            Move[] old = table;
            table = new Move[old.length * 2];
            for (Move m : old) {
                if (m != null) {
                    insert(m);
                }
            }
        }
        insert(move);
        entries++;
        return move;
    }

    private void insert(Move move) {
        int mask = table.length - 1;
        int i = (int) (move.hash ^ (move.hash >>> 32)) & mask;
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = move;
    }

    private Composition.Modifier prepared(Class<?>[] a, Class<?>[] removed) {
        Composition c = dominion.composition();
        switch (a.length) {
            case 0: return c.byRemoving(removed);
            case 1: return c.byAdding1AndRemoving(a[0], removed);
            case 2: return c.byAdding2AndRemoving(a[0], a[1], removed);
            case 3: return c.byAdding3AndRemoving(a[0], a[1], a[2], removed);
            case 4: return c.byAdding4AndRemoving(a[0], a[1], a[2], a[3], removed);
            case 5: return c.byAdding5AndRemoving(a[0], a[1], a[2], a[3], a[4], removed);
            case 6: return c.byAdding6AndRemoving(a[0], a[1], a[2], a[3], a[4], a[5], removed);
            case 7: return c.byAdding7AndRemoving(a[0], a[1], a[2], a[3], a[4], a[5], a[6], removed);
            default: return c.byAdding8AndRemoving(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], removed);
        }
    }
}
