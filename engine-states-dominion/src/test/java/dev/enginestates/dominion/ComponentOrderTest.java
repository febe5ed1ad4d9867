package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Patch 0002: {@code createEntity} with components in another order than the existing
 * composition's puts each component under its own type. Upstream's one pass of swaps got 15 of
 * the 120 orders of 5 components and 2,275 of the 5,040 orders of 7 wrong.
 */
class ComponentOrderTest {
    private static final List<IntFunction<Object>> SEVEN = List.of(
            Dominions.A::new, Dominions.B::new, Dominions.C::new, Dominions.D::new,
            Dominions.E::new, Dominions.F::new, Dominions.G::new);

    @Test
    void everyOrderOfFiveComponentsLandsUnderItsOwnTypes() {
        assertEquals(0, wrongOrders(5), "orders of 5 components stored under the wrong type");
    }

    @Test
    void everyOrderOfSevenComponentsLandsUnderItsOwnTypes() {
        assertEquals(0, wrongOrders(7), "orders of 7 components stored under the wrong type");
    }

    /** How many orders of the first n components leave some component under another type. */
    private static int wrongOrders(int n) {
        try (Dominions.Closing d = Dominions.create("orders-" + n)) {
            List<Object> inOrder = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                inOrder.add(SEVEN.get(i).apply(-1));
            }
            d.createEntity(inOrder.toArray()); // makes the composition, in this order
            int[] wrong = {0};
            int[] serial = {0};
            permutations(n, order -> {
                int id = ++serial[0];
                Object[] components = new Object[n];
                for (int i = 0; i < n; i++) {
                    components[i] = SEVEN.get(order[i]).apply(id);
                }
                Entity e = d.createEntity(components);
                for (int i = 0; i < n; i++) {
                    Object expected = SEVEN.get(i).apply(id);
                    if (!expected.equals(e.get(expected.getClass()))) {
                        wrong[0]++;
                        return;
                    }
                }
            });
            return wrong[0];
        }
    }

    private static void permutations(int n, java.util.function.Consumer<int[]> each) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        permute(order, 0, each);
    }

    private static void permute(int[] a, int k, java.util.function.Consumer<int[]> each) {
        if (k == a.length) {
            each.accept(a.clone());
            return;
        }
        for (int i = k; i < a.length; i++) {
            int t = a[k]; a[k] = a[i]; a[i] = t;
            permute(a, k + 1, each);
            t = a[k]; a[k] = a[i]; a[i] = t;
        }
    }
}
