package dev.enginestates.scxml;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One element of executable content, compiled once per document and shared by its instances. */
interface Exec {
    void run(Datamodel dm);

    /** Runs a block; the first error raises error.execution and ends the block, not later blocks (SCXML 4.9). */
    static void block(Exec[] block, Datamodel dm) {
        for (Exec e : block) {
            try {
                e.run(dm);
            } catch (DatamodelException ex) {
                dm.session.error(ex);
                return;
            }
        }
    }

    /** An element's place in the document, added to the error it raises. */
    record At(Exec inner, String tag, int line, int column) implements Exec {
        @Override
        public void run(Datamodel dm) {
            dm.session.bounds.spend(Bounds.OPERATION);
            try {
                inner.run(dm);
            } catch (DatamodelException e) {
                throw e.at(tag, line, column);
            }
        }
    }

    record Raise(String event) implements Exec {
        @Override
        public void run(Datamodel dm) {
            dm.session.raise(event, "internal", null);
        }
    }

    record Log(String label, String expr) implements Exec {
        @Override
        public void run(Datamodel dm) {
            Object value = expr == null ? null : dm.toJava(dm.evaluate(expr));
            dm.session.doc.log.accept(label, value);
        }
    }

    record Assign(String location, String expr, String content) implements Exec {
        @Override
        public void run(Datamodel dm) {
            Object value = expr != null ? dm.evaluate(expr) : content != null ? dm.content(content) : Datamodel.UNDEFINED;
            dm.assign(location, value);
        }
    }

    record Script(String source) implements Exec {
        @Override
        public void run(Datamodel dm) {
            dm.run(source);
        }
    }

    record Cancel(String sendid, String sendidexpr) implements Exec {
        @Override
        public void run(Datamodel dm) {
            String id = sendid != null ? sendid : String.valueOf(dm.toJava(dm.evaluate(sendidexpr)));
            dm.session.cancel(id);
        }
    }

    /** {@code <if>}: conditions[i] guards blocks[i]; a null condition is the {@code <else>}. */
    record If(String[] conditions, Exec[][] blocks) implements Exec {
        @Override
        public void run(Datamodel dm) {
            for (int i = 0; i < conditions.length; i++) {
                if (conditions[i] == null || dm.test(conditions[i])) {
                    for (Exec e : blocks[i]) {
                        e.run(dm); // an error ends the enclosing block too
                    }
                    return;
                }
            }
        }
    }

    record Foreach(String array, String item, String index, Exec[] body) implements Exec {
        @Override
        public void run(Datamodel dm) {
            List<Object> items = dm.items(array);
            Bounds bounds = dm.session.bounds;
            bounds.spend(items.size() * Bounds.VALUE); // the copy of the array's items
            for (String name : index == null ? new String[] {item} : new String[] {item, index}) {
                if (!dm.isDeclared(name)) {
                    dm.declare(name, Datamodel.UNDEFINED); // SCXML: foreach declares its item and index when they do not exist
                }
            }
            for (int i = 0; i < items.size(); i++) {
                bounds.spend(Bounds.OPERATION); // a turn costs its own, even with an empty body
                dm.assign(item, items.get(i));
                if (index != null) {
                    dm.assign(index, (double) i);
                }
                for (Exec e : body) {
                    e.run(dm);
                }
            }
        }
    }

    record Param(String name, String expr, String location) {
    }

    /** A {@code <send>}'s or {@code <donedata>}'s payload: its params, or its content (an expression or inline). */
    record Payload(Param[] params, String contentExpr, String content) {
        /**
         * The payload's value: the content's, or a map of the params; {@code null} when there is none.
         * A Java value, copied out of the datamodel: an event carries its data by value (SCXML 6.2), and a
         * pending send's data goes into checkpoints.
         */
        Object value(Datamodel dm) {
            if (contentExpr != null) {
                return dm.toJava(dm.evaluate(contentExpr));
            }
            if (content != null) {
                return dm.toJava(dm.content(content));
            }
            if (params.length == 0) {
                return null;
            }
            Map<String, Object> map = new LinkedHashMap<>();
            for (Param p : params) {
                map.put(p.name(), dm.toJava(dm.evaluate(p.expr() != null ? p.expr() : p.location())));
            }
            return map;
        }
    }

    /**
     * {@code <send>} to an SCXML session: the machine itself (external queue, or the internal one for
     * {@code #_internal}), its parent, a child it invoked, or any session of its tree by session id.
     */
    record Send(String event, String eventexpr, String target, String targetexpr, String type, String typeexpr,
                String id, String idlocation, String delay, String delayexpr, String[] namelist, Payload payload)
            implements Exec {
        @Override
        public void run(Datamodel dm) {
            Session s = dm.session;
            String name = event != null ? event : eventexpr != null ? String.valueOf(dm.toJava(dm.evaluate(eventexpr))) : null;
            String to = target != null ? target : targetexpr != null ? String.valueOf(dm.toJava(dm.evaluate(targetexpr))) : null;
            String processor = type != null ? type : typeexpr != null ? String.valueOf(dm.toJava(dm.evaluate(typeexpr))) : null;
            if (processor != null && !processor.equals(Session.SCXML_PROCESSOR) && !processor.equals("scxml")) {
                throw new DatamodelException("<send> type '" + processor + "' is not supported (only the SCXML event processor)",
                        null).sendid(id);
            }
            String sendid = id;
            if (idlocation != null) {
                sendid = s.id + ".send" + (++s.sends);
                dm.assign(idlocation, sendid);
            }
            Session dest = null;
            boolean internal = false;
            if (to == null) {
                dest = s;
            } else if (to.equals("#_internal")) {
                internal = true;
            } else if (to.equals("#_parent")) {
                dest = s.parent != null && s.parent.alive ? s.parent : null;
            } else if (to.startsWith("#_scxml_")) {
                dest = s.find(to.substring("#_scxml_".length()));
            } else if (to.startsWith("#_")) {
                dest = s.child(to.substring(2));
            } else {
                // SCXML 6.2.4: a target the processor does not support is error.execution
                throw new DatamodelException("<send> target '" + to + "' is not supported: only SCXML sessions "
                        + "(#_internal, #_parent, #_<invokeid>, #_scxml_<sessionid>)", null).sendid(sendid);
            }
            // a world's child machine and its parent are records apart: the world's children carry what they send
            boolean out = s.doc.childMachines && !internal && to != null && to.startsWith("#_") && !to.startsWith("#_scxml_");
            if (!internal && !out && dest == null) {
                // SCXML 6.2.4: a session of the SCXML processor that cannot be reached is error.communication
                s.communicationError(sendid, "<send> target '" + to + "' is not reachable from session " + s.id);
                return;
            }
            double seconds = delay != null ? seconds(delay)
                    : delayexpr != null ? seconds(String.valueOf(dm.toJava(dm.evaluate(delayexpr)))) : 0;
            Object data = payload.value(dm);
            if (namelist.length > 0 && payload.contentExpr() == null && payload.content() == null) {
                Map<String, Object> map = new LinkedHashMap<>();
                for (String n : namelist) {
                    map.put(n, dm.toJava(dm.evaluate(n)));
                }
                if (data instanceof Map<?, ?> params) {
                    params.forEach((k, v) -> map.put((String) k, v));
                }
                data = map;
            }
            if (name == null) {
                throw new DatamodelException("<send> has no event name", null);
            }
            if (internal) {
                dm.session.raise(name, "internal", data); // SCXML: a delay to #_internal is an error; sent at once here
            } else if (out) {
                s.sendOut(to, name, sendid, id != null || idlocation != null, data, seconds);
            } else {
                s.send(dest, name, sendid, id != null || idlocation != null, data, seconds);
            }
        }

        /**
         * CSS2 time: {@code 1s}, {@code .5s}, {@code 200ms}; a bare number is milliseconds. A time that is
         * negative, NaN or infinite is the send's error (error.execution, SCXML 6.2.4), not the engine's.
         */
        static double seconds(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT);
            double s;
            try {
                if (t.endsWith("ms")) {
                    s = Double.parseDouble(t.substring(0, t.length() - 2).trim()) / 1000;
                } else if (t.endsWith("s")) {
                    s = Double.parseDouble(t.substring(0, t.length() - 1).trim());
                } else {
                    s = Double.parseDouble(t) / 1000;
                }
            } catch (NumberFormatException e) {
                throw new DatamodelException("delay '" + text + "' is not a CSS2 time such as '1s' or '200ms'", e);
            }
            if (!(s >= 0) || Double.isInfinite(s)) {
                throw new DatamodelException("delay '" + text + "' is " + s + " seconds; expected a finite time, 0 or more", null);
            }
            return s;
        }
    }
}
