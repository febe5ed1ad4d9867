package dev.enginestates.algorithm;

/**
 * The scratch space of one move of a machine, whatever its style: a world keeps one per nesting
 * depth of moves, a plain-object machine one of its own. Each style's interpreter is made the
 * first time a move of that style needs it, then reused, so a warm move allocates nothing.
 */
public final class Scratch {
    private Interpreter xstateIn; // each made on the first move of its style
    private PolledInterpreter polledIn;
    private double clock;
    private long call;
    private PolledInterpreter.Listener polledListener;

    /** Sets the clock time and the number of the call into the library that the next moves belong to. */
    public Scratch at(double clock, long call) {
        this.clock = clock;
        this.call = call;
        return this;
    }

    /** The XState-style interpreter, on this scratch's clock and call. */
    public Interpreter xstate() {
        Interpreter in = xstateIn;
        if (in == null) {
            in = xstateIn = new Interpreter();
        }
        in.clock(clock);
        in.call(call);
        return in;
    }

    /** The XState-style interpreter as the last move left it, or {@code null} when no XState-style move used this scratch. */
    public Interpreter xstateIfMade() {
        return xstateIn;
    }

    /** The polled-style interpreter. */
    public PolledInterpreter polled() {
        PolledInterpreter in = polledIn;
        if (in == null) {
            in = polledIn = new PolledInterpreter();
            in.listener(polledListener);
        }
        return in;
    }

    /** Who hears the polled style's transitions made on this scratch (a plain-object machine's listeners); {@code null}: nobody. */
    public void listen(PolledInterpreter.Listener polledListener) {
        this.polledListener = polledListener;
        if (polledIn != null) {
            polledIn.listener(polledListener);
        }
    }
}
