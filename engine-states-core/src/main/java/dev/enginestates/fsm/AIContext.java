package dev.enginestates.fsm;

import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.declare.Window;
import dev.dominion.ecs.api.Entity;

import java.util.Map;

/**
 * The contract implemented as plain fields, so a context only adds its own: extend it for a
 * bot, a door or a match.
 *
 * <pre>{@code
 * class Bot extends AIContext {
 *     String role = "kickoff";
 *     boolean hasBall;
 * }
 * }</pre>
 */
public abstract class AIContext implements StateContext {
    // transient: not the game's state to save; the world writes each back from the machine's record and
    // chart (and the entity) after a restore, so a checkpoint holds only the fields the game adds
    private transient float timeInState;
    private transient float stateDuration;
    private transient String currentStateTag = "";
    private transient Map<String, Window> activeWindows = Map.of();
    private transient Object currentStateData;
    private transient StateMotionProfile currentStateMotion;
    private transient float previousProgress;
    private transient Entity entity;

    /** Starts with no state: the machine writes every field when it starts. */
    protected AIContext() {
    }

    @Override
    public float timeInState() {
        return timeInState;
    }

    @Override
    public void setTimeInState(float seconds) {
        this.timeInState = seconds;
    }

    @Override
    public float stateDuration() {
        return stateDuration;
    }

    @Override
    public void setStateDuration(float seconds) {
        this.stateDuration = seconds;
    }

    @Override
    public String currentStateTag() {
        return currentStateTag;
    }

    @Override
    public void setCurrentStateTag(String tag) {
        this.currentStateTag = tag;
    }

    @Override
    public Map<String, Window> activeWindows() {
        return activeWindows;
    }

    @Override
    public void setActiveWindows(Map<String, Window> windows) {
        this.activeWindows = windows;
    }

    @Override
    public Object currentStateData() {
        return currentStateData;
    }

    @Override
    public void setCurrentStateData(Object data) {
        this.currentStateData = data;
    }

    @Override
    public StateMotionProfile currentStateMotion() {
        return currentStateMotion;
    }

    @Override
    public void setCurrentStateMotion(StateMotionProfile motion) {
        this.currentStateMotion = motion;
    }

    @Override
    public float previousProgress() {
        return previousProgress;
    }

    @Override
    public void setPreviousProgress(float progress) {
        this.previousProgress = progress;
    }

    @Override
    // Dominion's API is optional for the core (requires static): a game on entities reads it through dev.enginestates.ecs
    @SuppressWarnings("exports")
    public Entity entity() {
        return entity;
    }

    @Override
    @SuppressWarnings("exports")
    public void setEntity(Entity entity) {
        this.entity = entity;
    }
}
