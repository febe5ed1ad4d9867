package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** What a player may see of a room's dump: the dump without other players' ownerOnly records and their tags, nor owners. */
final class Seen {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Seen() {
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException("not JSON: " + text, e);
        }
    }

    /** The room's dump as the player's replica should dump it. */
    static JsonNode by(String roomDump, String player) {
        ObjectNode root = (ObjectNode) parse(roomDump);
        ObjectNode entities = (ObjectNode) root.get("entities");
        for (Iterator<Map.Entry<String, JsonNode>> it = entities.properties().iterator(); it.hasNext(); ) {
            ObjectNode e = (ObjectNode) it.next().getValue();
            JsonNode owner = e.remove("owner");
            ObjectNode machines = (ObjectNode) e.get("machines");
            ObjectNode tags = (ObjectNode) e.get("tags");
            for (String id : names(machines)) {
                if (machines.get(id).has("ownerOnly") && (owner == null || !owner.asText().equals(player))) {
                    machines.remove(id);
                    for (String tag : names(tags)) {
                        if (tag.startsWith(id + ".")) {
                            tags.remove(tag);
                        }
                    }
                }
            }
            if (machines.isEmpty()) {
                it.remove();
            }
        }
        return root;
    }

    private static List<String> names(ObjectNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
