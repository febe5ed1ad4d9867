package dev.enginestates.scxml;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One imported machine instance's own state beside its variables: the datamodel's {@code session},
 * with the sessions it invoked (SCXML 6.4). Every session of a tree shares the top session's
 * clock: a send from any of them is a pending send of the top machine (a child's wrapped in a
 * {@link #WAKE} event the top hands down), so an invoked session runs only inside its top
 * machine's step.
 */
final class Session {
    /** Keys of the fields the importer puts on the events it makes. */
    static final String TYPE = "scxml.type";
    static final String SENDID = "scxml.sendid";
    static final String ORIGIN = "scxml.origin";
    static final String ORIGINTYPE = "scxml.origintype";
    static final String INVOKEID = "scxml.invokeid";
    static final String DATA = "scxml.data";
    /** The session id of the child an event came from (for {@code <finalize>}). */
    static final String FROM = "scxml.from";
    /**
     * A {@link #WAKE}'s session id to hand its event to, and that event's type and fields: plain values, so that a
     * pending send between sessions is in checkpoints as any other.
     */
    static final String TO = "scxml.to";
    static final String EVENT = "scxml.event";
    static final String FIELDS = "scxml.fields";
    /**
     * The engine's own event that starts a session's invocations after its macrostep, or carries an
     * event to an invoked session; no SCXML descriptor but {@code *} can match the '$', and the
     * importer keeps {@code *} from taking it.
     */
    static final String WAKE = "$scxml.invoke";
    /** What a parent sends its child machine to start the child's initial states ({@link ScxmlImport#childMachines}). */
    static final String START = "$scxml.start";
    /** A {@link #WAKE}'s {@code #_parent} or {@code #_<invokeid>}: a delayed send between a child machine and its parent. */
    static final String OUT = "scxml.out";
    static final String SCXML_PROCESSOR = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor";
    private static final AtomicLong SESSIONS = new AtomicLong();

    final Document doc;
    String id = "s" + SESSIONS.incrementAndGet();
    final Set<String> lateBound = new HashSet<>();
    final Map<String, Object> doneData = new HashMap<>();
    long sends;
    long invokes;
    /** The sessions this one started so far: a child's session id is this one's, then its number. */
    long spawned;
    /** The machine's Self while its code runs: the In() predicate and the queue operations need it. */
    Self self;
    /** This session's variables. */
    Datamodel dm;
    private Event bound;
    boolean started;

    /** The bounds of the machine's tree of sessions: shared by every session of it (the top session's own). */
    Bounds bounds;
    /** How many sessions invoked this one's ancestors: 0 for a top session. */
    int depth;

    // ---- an invoked session (all null for a top session)
    Session parent;
    String invokeid;
    Invoke invoke;
    Invoked host;
    /** What a child loaded when it started ({@code srcexpr}'s address, or {@code <content expr>}'s text), else null: a restore loads it again. */
    String loadedSrc;
    String loadedContent;
    /** The invoke's namelist and params: they replace the values of the child's {@code <data>} of those ids. */
    Map<String, Object> initial = Map.of();
    /** False once cancelled or finished: what is sent to it is dropped, its own sends are cancelled. */
    boolean alive = true;
    /** Set while its last onexit handlers run: it has no internal queue any more. */
    boolean halted;
    /** The ids under which its sends wait in the top session's pending sends, the delayed ones apart. */
    final Set<String> keys = new HashSet<>();
    final Set<String> delayedKeys = new HashSet<>();

    // ---- a world's child machine
    /** Its id among its parent's children, or null when it is nobody's child machine: its events to the parent carry it. */
    String asChild;
    /** The errors of its children's params and namelists, evaluated as the world started them: raised at its next wake. */
    final List<DatamodelException> inputErrors = new ArrayList<>(0);

    // ---- sessions this one invoked
    /** Started children, alive or finished, until their state exits. */
    final List<Session> children = new ArrayList<>();
    /** Invokes of states entered in the current macrostep, started when it is over. */
    final List<Invoke> toStart = new ArrayList<>();

    Session(Document doc) {
        this.doc = doc;
        this.bounds = new Bounds(this, doc.invokeDepth, doc.sessions, doc.callBudget);
    }

    /**
     * Takes a checkpoint's session, checked by {@link Datamodel#restore}. The instance goes on as the
     * same session, so it keeps its id; ids made here from now on are above a restored {@code sN}.
     */
    void restore(String sessionId, boolean wasStarted, long sendCount, List<String> late, Map<?, ?> done) {
        id = sessionId;
        if (sessionId.matches("s[0-9]{1,18}")) {
            long n = Long.parseLong(sessionId.substring(1));
            SESSIONS.accumulateAndGet(n, Math::max);
        }
        started = wasStarted;
        sends = sendCount;
        lateBound.clear();
        lateBound.addAll(late);
        doneData.clear();
        done.forEach((k, v) -> doneData.put((String) k, v));
        bound = null;
    }

    /** Whether an event is the importer's own (a wake, a child's start), which no document sees. */
    static boolean own(Event e) {
        String t = e.type();
        return t.equals(WAKE) || t.equals(START);
    }

    /** Before a piece of the machine's code runs: remembers Self and binds {@code _event} (once per event). */
    void enter(Datamodel dm, Event event, Self self) {
        this.self = self;
        bounds.spend(Bounds.OPERATION);
        boolean fresh = event != bound;
        // the engine hands every done.state.<id> of a state as one instance, so identity does not tell a
        // second one (its <donedata> evaluated again) from the first: its _event is always bound anew
        if (fresh || event.type().startsWith("xstate.done.state.")) {
            bound = event;
            dm.bindEvent(scxmlEvent(dm, event));
            if (fresh && started && !own(event)) {
                if (doc.childMachines && !doc.invokes.isEmpty()) {
                    receivedFromWorld(event);
                } else if (!children.isEmpty() || !toStart.isEmpty()) {
                    received(dm, event);
                }
            }
        }
        if (!started) {
            // the root's first entry action on a plain machine; on an entity, whose initial entry actions
            // do not run, the instance's first code
            started = true;
            doc.init.accept(dm);
        }
    }

    /**
     * An event this session is about to process: an invoked child's {@code <finalize>} runs on the
     * child's events first (SCXML 6.5), and every external event is copied to the children invoked
     * with {@code autoforward} (6.4), the child's own events included (W3C test 229).
     */
    private void received(Datamodel dm, Event event) {
        Map<String, Object> f = event.fields();
        Object type = f.get(TYPE);
        boolean external = (type == null || type.equals("external")) && !event.type().startsWith("xstate.");
        if (external && !toStart.isEmpty()) {
            // a new external event: the macrostep that entered the invoking states is over (SCXML 3.13's
            // mainEventLoop starts their invokes before it takes the next external event)
            startInvokes();
        }
        Session sender = f.get(FROM) instanceof String from ? started(from) : null;
        if (sender != null && sender.invoke.finalizer().length > 0) {
            Exec.block(sender.invoke.finalizer(), dm);
        }
        if (external) {
            for (Session c : List.copyOf(children)) {
                if (c.alive && c.invoke.autoforward()) {
                    post(c, event, 0, null);
                }
            }
        }
    }

    /**
     * An event a machine whose invokes are child machines is about to process: the invokes its last macrostep
     * scheduled start at the next external event (as {@link #received} says); a child's events (its sends to
     * {@code #_parent} carry its id, its done event names it) run its {@code <finalize>} first; and each external
     * event is copied to the running children invoked with {@code autoforward}.
     */
    private void receivedFromWorld(Event event) {
        Map<String, Object> f = event.fields();
        Object type = f.get(TYPE);
        String t = event.type();
        boolean external = (type == null || type.equals("external")) && !t.startsWith("xstate.");
        if (external && !toStart.isEmpty()) {
            startInvokes();
        }
        String from = t.startsWith(DONE_ACTOR) ? t.substring(DONE_ACTOR.length())
                : f.get(INVOKEID) instanceof String id ? id : null;
        for (Invoke inv : doc.invokes) {
            if (from != null && inv.id().equals(from) && inv.finalizer().length > 0 && self.isIn(inv.statePath())) {
                Exec.block(inv.finalizer(), dm);
            }
        }
        if (external) {
            for (Invoke inv : doc.invokes) {
                if (inv.autoforward() && self.isIn(inv.statePath())) {
                    self.sendTo(inv.id(), event);
                }
            }
        }
    }

    /** The world's done event of a child machine: {@code done.invoke.<id>} to the document. */
    private static final String DONE_ACTOR = "xstate.done.actor.";

    private ScxmlEvent scxmlEvent(Datamodel dm, Event e) {
        String type = e.type();
        if (type.equals("xstate.init") || type.equals(START)) {
            return null;
        }
        Map<String, Object> f = e.fields();
        if (type.startsWith(DONE_ACTOR) && !f.containsKey(TYPE)) {
            String child = type.substring(DONE_ACTOR.length());
            return new ScxmlEvent("done.invoke." + child, "external", null, "#_" + child, SCXML_PROCESSOR, child, f.get("output"));
        }
        if (f.containsKey(TYPE)) {
            String name = type.startsWith("xstate.done.") ? type.substring("xstate.".length()) : type;
            return new ScxmlEvent(name, (String) f.get(TYPE), (String) f.get(SENDID), (String) f.get(ORIGIN),
                    (String) f.get(ORIGINTYPE), (String) f.get(INVOKEID), f.get(DATA));
        }
        if (type.startsWith("xstate.done.state.")) {
            String state = ScxmlImport.stateId(type.substring("xstate.done.state.".length()));
            return new ScxmlEvent("done.state." + state, "platform", null, null, null, null, doneData.get(state));
        }
        return new ScxmlEvent(type, "external", null, null, null, null, f.isEmpty() ? null : f);
    }

    boolean isIn(String scxmlId) {
        String path = doc.paths.get(scxmlId);
        if (path == null) {
            return false;
        }
        return self.isIn(path);
    }

    static Event event(String name, String type, String sendid, String origin, Object data) {
        return event(name, type, sendid, origin, null, data);
    }

    static Event event(String name, String type, String sendid, String origin, Session from, Object data) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(TYPE, type);
        if (sendid != null) {
            fields.put(SENDID, sendid);
        }
        if (origin != null) {
            fields.put(ORIGIN, origin);
            fields.put(ORIGINTYPE, SCXML_PROCESSOR);
        }
        if (from != null) {
            fields.put(INVOKEID, from.invokeid);
            fields.put(FROM, from.id);
        }
        if (data != null) {
            fields.put(DATA, data);
        }
        return Event.of(name, fields);
    }

    void raise(String name, String type, Object data) {
        if (!halted) {
            self.raise(event(name, type, null, null, data));
        }
    }

    // ------------------------------------------------------------------ sends between sessions

    Session top() {
        Session s = this;
        while (s.parent != null) {
            s = s.parent;
        }
        return s;
    }

    /** The session of this tree with that session id, alive, or null. */
    Session find(String sessionId) {
        return find(top(), sessionId);
    }

    private static Session find(Session at, String sessionId) {
        if (at.id.equals(sessionId)) {
            return at.alive ? at : null;
        }
        for (Session c : at.children) {
            Session s = find(c, sessionId);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    /** The child this session started with that session id, alive or ended (until its state exits), or null. */
    private Session started(String sessionId) {
        for (Session c : children) {
            if (c.id.equals(sessionId)) {
                return c;
            }
        }
        return null;
    }

    /** The live child this session invoked with that invoke id, or null. */
    Session child(String invokeid) {
        for (Session c : children) {
            if (c.alive && c.invokeid.equals(invokeid)) {
                return c;
            }
        }
        return null;
    }

    /**
     * A {@code <send>} from this session's code to a session's external queue, due after
     * {@code delay} seconds; {@code sendid} is the send's id, for {@code <cancel>} and {@code _event.sendid}.
     */
    void send(Session to, String name, String sendid, boolean showId, Object data, double delay) {
        Object payload = to == this ? data : copy(data);
        Event e = event(name, "external", showId ? sendid : null, "#_scxml_" + id, to == parent ? this : null, payload);
        String key;
        if (parent == null) {
            key = sendid;
        } else {
            // a child's ids are its own: they wait, prefixed, among the top session's pending sends
            key = sendid != null ? "$" + id + "/" + sendid : delay > 0 ? "$" + id + "~" : "$" + id;
            keys.add(key);
            if (delay > 0) {
                delayedKeys.add(key);
            }
        }
        post(to, e, delay, key);
    }

    /** Values that leave this session's datamodel: as Java values, which the other datamodel reads. */
    private Object copy(Object data) {
        if (data instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), dm.toJava(v)));
            return out;
        }
        return dm.toJava(data);
    }

    /**
     * A {@code <send>} between a world's child machine and its parent: {@code #_parent} or {@code #_<invokeid>},
     * delivered through the world's children now, or after {@code delay} seconds of this machine's clock. The
     * origin is the target that answers the sender ({@code #_<invokeid>} seen from the parent, {@code #_parent}
     * from the child).
     */
    void sendOut(String target, String name, String sendid, boolean showId, Object data, double delay) {
        boolean up = target.equals("#_parent");
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(TYPE, "external");
        if (showId && sendid != null) {
            fields.put(SENDID, sendid);
        }
        fields.put(ORIGIN, up ? (asChild == null ? "#_scxml_" + id : "#_" + asChild) : "#_parent");
        fields.put(ORIGINTYPE, SCXML_PROCESSOR);
        if (up && asChild != null) {
            fields.put(INVOKEID, asChild);
        }
        Object payload = copy(data);
        if (payload != null) {
            fields.put(DATA, payload);
        }
        if (delay > 0) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put(OUT, target);
            f.put(EVENT, name);
            f.put(FIELDS, fields);
            self.sendSelf(Event.of(WAKE, f), delay, sendid);
            return;
        }
        deliverOut(target, Event.of(name, fields));
    }

    private void deliverOut(String target, Event e) {
        boolean taken = target.equals("#_parent") ? self.sendParent(e) : self.sendTo(target.substring(2), e);
        if (!taken) {
            Object sendid = e.fields().get(SENDID);
            communicationError(sendid instanceof String s ? s : null, "<send> target '" + target + "' is not reachable from"
                    + " machine '" + doc.name + "': " + (target.equals("#_parent") ? "it is no child machine now"
                    : "no child machine of that id runs now"));
        }
    }

    /** SCXML's {@code <cancel>}: this session's pending send with that id. */
    void cancel(String sendid) {
        top().self.cancel(parent == null ? sendid : "$" + id + "/" + sendid);
    }

    /** Puts an event on a session's external queue, which is the top session's pending sends. */
    private void post(Session to, Event e, double delay, String key) {
        Session top = top();
        if (to == top) {
            top.self.sendSelf(e, delay, key);
        } else {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put(TO, to.id);
            f.put(EVENT, e.type());
            f.put(FIELDS, e.fields());
            top.self.sendSelf(Event.of(WAKE, f), delay, key);
        }
    }

    // ------------------------------------------------------------------ invocations

    /** Whether it has invoked sessions, running or ended, or invokes about to start: then its checkpoint holds them. */
    boolean invoking() {
        return !children.isEmpty() || !toStart.isEmpty();
    }

    /**
     * The entry of an invoking state: its invokes start once the macrostep is over (SCXML 3.13, 6.4),
     * at this session's next external event or at the wake event it sends itself, whichever comes first
     * (Apache Commons SCXML likewise starts them when the macrostep is done, before the next external event).
     */
    void scheduleInvoke(Invoke inv) {
        if (toStart.isEmpty()) {
            post(this, Event.of(WAKE), 0, null);
        }
        toStart.add(inv);
    }

    /** The exit of an invoking state: its invokes not yet started are dropped, its children cancelled (SCXML 6.4). */
    void cancelInvokes(String stateId) {
        toStart.removeIf(i -> i.stateId().equals(stateId));
        for (Session c : List.copyOf(children)) {
            if (c.invoke.stateId().equals(stateId)) {
                c.kill(true);
                children.remove(c);
            }
        }
    }

    /** A {@link #WAKE} this session's machine took: start its invocations, or hand an event down. */
    void wake(Event e, Self self) {
        this.self = self;
        bounds.spend(Bounds.OPERATION);
        Map<String, Object> f = e.fields();
        if (f.get(OUT) instanceof String out) {
            if (f.get(EVENT) instanceof String type && f.get(FIELDS) instanceof Map<?, ?> fields) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) fields;
                deliverOut(out, Event.of(type, typed));
            }
            return;
        }
        if (f.get(TO) instanceof String to) {
            Session target = find(to); // null once it ended: what was sent to it is dropped
            if (target != null && target != this && f.get(EVENT) instanceof String type && f.get(FIELDS) instanceof Map<?, ?> fields) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) fields;
                target.receive(Event.of(type, typed));
            }
            return;
        }
        startInvokes(Boolean.TRUE.equals(f.get(RETRY)));
    }

    /** Starts the invokes of the states the last macrostep entered, in document order. */
    private void startInvokes() {
        startInvokes(false);
    }

    private void startInvokes(boolean retry) {
        List<Invoke> now = List.copyOf(toStart);
        toStart.clear();
        if (doc.childMachines) {
            startChildMachines(now, retry);
            return;
        }
        for (Invoke inv : now) {
            Session child;
            try {
                child = inv.create(this);
            } catch (DatamodelException ex) {
                error(ex.at("invoke", inv.line(), inv.column()));
                continue;
            }
            children.add(child);
            child.run(null);
        }
    }

    /**
     * The world started the child machines of the states the last move entered (their records wait in
     * {@code $boot}): each still running enters its initial states now, in document order. The errors of
     * their params come first, and an invoke whose document was not compiled (below the invoke depth) is
     * error.execution.
     */
    private void startChildMachines(List<Invoke> now, boolean retry) {
        for (DatamodelException ex : List.copyOf(inputErrors)) {
            error(ex);
        }
        inputErrors.clear();
        List<Invoke> waiting = new ArrayList<>(0);
        for (Invoke inv : now) {
            if (inv.machine() == null) {
                error(new DatamodelException("<invoke> in state '" + inv.stateId() + "' of machine '" + doc.name + "' has no child"
                        + " machine: its document would run below " + doc.invokeDepth + " levels (ScxmlImport.invokeDepth),"
                        + " so the import did not compile it. Expected a chain of invokes that ends", null)
                        .at("invoke", inv.line(), inv.column()));
            } else if (self.isIn(inv.statePath())) {
                if (!self.sendTo(inv.id(), Event.of(START)) && !retry) {
                    waiting.add(inv);
                }
            }
        }
        if (!waiting.isEmpty()) {
            // a wake with no delay runs before the world starts the children of the move (its sends to itself
            // come first): once more at the next step, then a child that is still not there was stopped by the game
            toStart.addAll(waiting);
            self.sendSelf(Event.of(WAKE, Map.of(RETRY, true)), RETRY_DELAY, null);
        }
    }

    /** A wake's mark that it is the second try to start child machines that were not there yet. */
    static final String RETRY = "scxml.retry";
    /** How long after its first try a wake starts child machines again: more than nothing, so at the next step. */
    static final double RETRY_DELAY = 1e-6;

    /**
     * The context of a child machine the world starts for {@code inv} (its input): a fresh datamodel of
     * {@code machine} whose data the invoke's namelist and params give, evaluated in this one now (SCXML
     * 6.4.1); {@code idlocation} is assigned the child's id. An evaluation error is raised at this machine's
     * next wake, as error.execution.
     */
    Datamodel childContext(Invoke inv, dev.enginestates.Machine<Datamodel> machine) {
        Map<String, Object> values = new LinkedHashMap<>();
        try {
            if (inv.idlocation() != null) {
                dm.assign(inv.idlocation(), inv.id());
            }
            for (String n : inv.namelist()) {
                values.put(n, dm.toJava(dm.evaluate(n)));
            }
            for (Exec.Param p : inv.params()) {
                values.put(p.name(), dm.toJava(dm.evaluate(p.expr() != null ? p.expr() : p.location())));
            }
        } catch (DatamodelException ex) {
            inputErrors.add(ex.at("invoke", inv.line(), inv.column()));
        }
        Datamodel child = machine.newContext();
        child.session.initial = values;
        child.session.asChild = inv.id();
        return child;
    }

    /** A child machine's output once done: its top-level final's {@code <donedata>}, as Java values, or null. */
    Object output() {
        return copy(doneData.get(""));
    }

    /** An event of this invoked session's external queue, processed unless the session is over. */
    private void receive(Event e) {
        if (alive) {
            run(e);
        }
    }

    /**
     * Runs this invoked session's start ({@code null}) or one of its events, then settles it. Its code
     * that throws (or an eventless cycle) ends it, cancelled, with no onexit run, before the failure
     * goes on to the top machine's step.
     */
    private void run(Event e) {
        try {
            if (e == null) {
                host.start();
            } else {
                host.deliver(e);
            }
        } catch (RuntimeException | Error failure) {
            halted = true;
            kill(true);
            throw failure;
        }
        settle();
    }

    /** After this invoked session ran: at a top-level final it ends with done.invoke to its parent (SCXML 6.4). */
    private void settle() {
        if (!alive || !host.isDone()) {
            return;
        }
        halted = true; // the engine ran the onexit handlers of its last configuration as it reached the final
        kill(false);
        Object data = copy(doneData.get(""));
        Event done = event("xstate.done.invoke." + invokeid, "external", null, "#_scxml_" + id, this, data);
        parent.post(parent, done, 0, "$" + id);
    }

    /**
     * Ends this invoked session and its own children: nothing more reaches it, and its delayed
     * sends are cancelled. Cancelled while it runs ({@code cancelled}: its state exited), also what
     * it sent that its parent has not yet processed (SCXML 6.4: no events from a cancelled session);
     * a session that had already ended keeps its last events and done.invoke (W3C test 236).
     */
    private void kill(boolean cancelled) {
        if (!alive) {
            return;
        }
        try {
            // a call that has spent its budget skips the handlers, so that the session still ends
            if (!halted && !bounds.spentOut()) {
                halt();
            }
        } finally {
            halted = true;
            alive = false;
            bounds.sessions--;
            for (Session c : children) {
                c.kill(true);
            }
            toStart.clear();
            Self topSelf = top().self;
            for (String k : cancelled ? keys : delayedKeys) {
                topSelf.cancel(k);
            }
            if (cancelled) {
                topSelf.cancel("$" + id);
            }
        }
    }

    /**
     * SCXML's exitInterpreter for an invoked session that is cancelled (W3C test 250): the onexit
     * handlers of its active states, in exit order; what they raise is dropped, what they send is
     * cancelled with the rest. (At a top-level final the engine itself runs them, before done.invoke:
     * W3C test 236.)
     */
    private void halt() {
        halted = true;
        self = host;
        Chart c = host.chart();
        int[] active = new int[host.activeCount()];
        for (int i = 0; i < active.length; i++) {
            active[i] = host.activeAt(i);
        }
        java.util.Arrays.sort(active); // the chart numbers states in document order: reversed, children exit first
        for (int i = active.length - 1; i >= 0; i--) {
            List<Exec[]> blocks = doc.exits.get(c.path[active[i]]);
            if (blocks != null) {
                for (Exec[] b : blocks) {
                    Exec.block(b, dm);
                }
            }
        }
    }

    // ------------------------------------------------------------------ errors

    /** SCXML's error.communication (a send whose target cannot be reached), on the internal queue. */
    void communicationError(String sendid, String reason) {
        if (halted) {
            return;
        }
        doc.logger.log(System.Logger.Level.DEBUG, () -> "machine '" + doc.name + "': error.communication: " + reason);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", reason);
        self.raise(event("error.communication", "platform", sendid, null, data));
    }

    /** SCXML's error.execution, on the internal queue. */
    void error(DatamodelException e) {
        doc.logger.log(System.Logger.Level.DEBUG, () -> "machine '" + doc.name + "': error.execution: " + e.getMessage());
        if (halted) {
            return;
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("tagname", e.tagname());
        data.put("line", e.line());
        data.put("column", e.column());
        data.put("reason", e.getMessage());
        self.raise(event("error.execution", "platform", e.sendid(), null, data));
    }
}
