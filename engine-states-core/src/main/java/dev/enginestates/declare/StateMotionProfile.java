package dev.enginestates.declare;

/**
 * How a state moves its owner: how much
 * of its normal movement it keeps, and a motion value over the state's progress (a lunge, a
 * dodge's root motion).
 *
 * <pre>{@code
 * .motion(new StateMotionProfile(0.25f, 1f))                 // a quarter of the walk speed
 * .motion(new StateMotionProfile(0f, 3f, p -> 1 - p))        // a lunge fading over the state
 * }</pre>
 *
 * @param movementThrottle the share of normal movement the owner keeps in the state, 0 to 1
 * @param motionScale      scales the curve
 * @param curve            the motion at a progress clamped to 0..1, or {@code null} for a constant 1
 */
public record StateMotionProfile(float movementThrottle, float motionScale, Curve curve) {
    /** A motion curve over a state's progress. */
    @FunctionalInterface
    public interface Curve {
        /**
         * The motion at {@code progress}, from 0 (entry) to 1 (the duration has passed).
         *
         * @param progress the state's progress, clamped to 0..1
         * @return the motion, before {@code motionScale} scales it
         */
        float at(float progress);
    }

    /**
     * A profile without a curve: the motion is {@code motionScale} all through the state.
     *
     * @param movementThrottle the share of normal movement the owner keeps in the state, 0 to 1
     * @param motionScale the motion all through the state; finite
     * @throws IllegalArgumentException if the throttle is not within 0..1 or the scale is not finite
     */
    public StateMotionProfile(float movementThrottle, float motionScale) {
        this(movementThrottle, motionScale, null);
    }

    /**
     * A profile whose motion follows a curve over the state's progress.
     *
     * @param movementThrottle the share of normal movement the owner keeps in the state, 0 to 1
     * @param motionScale scales the curve; finite
     * @param curve the motion at a progress clamped to 0..1, or {@code null} for a constant 1
     * @throws IllegalArgumentException if the throttle is not within 0..1 or the scale is not finite
     */
    public StateMotionProfile {
        if (!(movementThrottle >= 0f && movementThrottle <= 1f)) {
            throw new IllegalArgumentException("a motion profile's movementThrottle is the share of movement kept, 0 to 1; got "
                    + movementThrottle);
        }
        if (!Float.isFinite(motionScale)) {
            throw new IllegalArgumentException("a motion profile's motionScale must be finite; got " + motionScale);
        }
    }

    /**
     * The motion at {@code progress}: {@code motionScale * curve(clamp(progress, 0, 1))}.
     *
     * @param progress the state's progress: time in state over duration, any value
     * @return the motion value
     */
    public float evaluate(float progress) {
        float p = progress < 0f ? 0f : Math.min(progress, 1f);
        return curve == null ? motionScale : motionScale * curve.at(p);
    }
}
