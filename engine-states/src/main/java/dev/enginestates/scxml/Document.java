package dev.enginestates.scxml;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/** What one imported document's instances share: its name, its states' engine paths, its log. */
final class Document {
    final String name;
    /** The {@code <scxml>} element's {@code name} attribute ({@code _name}), or {@code null}. */
    final String scxmlName;
    /** SCXML state id to the engine's dotted path. */
    final Map<String, String> paths = new HashMap<>();
    final System.Logger logger = System.getLogger("dev.enginestates");
    final BiConsumer<String, Object> log;
    /** A datamodel's per-document state, such as its compiled scripts, by the datamodel's key: freed with the document. */
    final Map<Class<?>, Object> caches = new ConcurrentHashMap<>();
    /** The datamodel's variables and the top-level script, run before the instance's first code. */
    java.util.function.Consumer<Datamodel> init = dm -> { };

    Document(String name, String scxmlName, BiConsumer<String, Object> log) {
        this.name = name;
        this.scxmlName = scxmlName;
        this.log = log;
    }
}
