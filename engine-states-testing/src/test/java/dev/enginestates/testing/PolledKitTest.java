package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The test kit works for polled machines (the {@code 000} document's style) as for the others. */
class PolledKitTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    public static final class Bot {
        public boolean target;
        public int hits;
    }

    static final States<Bot> GUARD = States.of(StatesDef.define("kit-polled-guard", Bot::new, d -> d
            .on("hit", (b, args) -> {
                b.hits += args.length;
                return "flinch";
            })
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s.state("engage").state("shoot"))
            .state("search", s -> s.after(6, "patrol"))
            .state("flinch", s -> s.after(0.2, "$back"))));

    @Test
    void spawn_in_a_state_with_its_clock_set_then_advance() {
        Entity bot = world.spawnIn(GUARD, "search").timeIn("search", 5.5).entity();
        assertThat(world, bot).machine(GUARD).hasState("search").hasSecondsLeft(0.5).hasTimeIn("search", 5.5).hasTag("search");
        world.advance(0.5);
        assertThat(world, bot).machine(GUARD).hasState("patrol").hasPrevious("search").hasTag("patrol").doesNotHaveTag("search");
    }

    @Test
    void start_in_sends_with_arguments_and_go() {
        Entity bot = world.spawn(EntityKey.of("b"), GUARD.trait());
        world.startIn(bot, GUARD, "combat.shoot");
        assertTrue(world.send(GUARD, bot, "hit", 1, 2));
        assertThat(world, bot).machine(GUARD).isIn("flinch").hasContext("two hits", b -> b.hits == 2);
        world.advance(0.2);
        assertThat(world, bot).machine(GUARD).hasState("combat.shoot").isIn("combat").hasTag("combat.shoot");
        world.go(GUARD, bot, "patrol").advanceSteps(1);
        assertThat(world, bot).machine(GUARD).hasState("patrol").hasTimeIn("patrol", 1.0 / 60);
    }

    @Test
    void assertions_fail_with_what_the_machine_is_doing() {
        Entity bot = world.spawnIn(GUARD, "patrol").entity();
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(world, bot).machine(GUARD).hasState("combat.engage"));
        assertTrue(e.getMessage().contains("'patrol'"), e.getMessage());
        assertThrows(AssertionError.class, () -> assertThat(world, bot).machine(GUARD).hasTimeIn("patrol", 3));
    }
}
