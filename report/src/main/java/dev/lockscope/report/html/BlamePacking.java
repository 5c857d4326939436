package dev.lockscope.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code blame} array as the page embeds it: every string and every call chain once, entries
 * as a flat array of indices. 100k entries of 7-frame chains take ~85 MB as plain JSON and a few MB
 * packed; report.js ({@code unpackBlame}) turns it back into the contract's objects, sharing the
 * chain arrays. Only the contract's fields travel (see {@link #FIELDS}).
 */
final class BlamePacking {
    static final List<String> FIELDS = List.of("kind", "lockClass", "lockId", "waiterThread", "waiterFrames",
            "ownerThread", "ownerFrames", "ownerChain", "nanos", "count");

    private final Map<String, Integer> strings = new HashMap<>();
    private final Map<JsonNode, Integer> chains = new HashMap<>();
    private final ArrayNode stringTable = JsonNodeFactory.instance.arrayNode();
    private final ArrayNode chainTable = JsonNodeFactory.instance.arrayNode();

    private BlamePacking() {
    }

    static ObjectNode pack(JsonNode blame) {
        return new BlamePacking().packAll(blame);
    }

    private ObjectNode packAll(JsonNode blame) {
        ObjectNode packed = JsonNodeFactory.instance.objectNode();
        ArrayNode fields = packed.putArray("fields");
        FIELDS.forEach(fields::add);
        ArrayNode entries = JsonNodeFactory.instance.arrayNode();
        for (JsonNode e : blame) {
            for (String field : FIELDS) {
                JsonNode v = e.path(field);
                switch (field) {
                    case "waiterFrames", "ownerFrames" -> entries.add(chain(v));
                    case "nanos" -> entries.add(v.asLong());
                    case "count" -> entries.add(v.asLong(1));
                    default -> entries.add(v.isTextual() ? string(v.asText()) : -1); // -1: null or absent
                }
            }
        }
        packed.set("strings", stringTable);
        packed.set("chains", chainTable);
        packed.set("entries", entries);
        return packed;
    }

    private int string(String s) {
        return strings.computeIfAbsent(s, k -> {
            stringTable.add(k);
            return stringTable.size() - 1;
        });
    }

    private int chain(JsonNode frames) {
        Integer known = chains.get(frames);
        if (known != null) {
            return known;
        }
        List<Integer> ids = new ArrayList<>(frames.size());
        frames.forEach(f -> ids.add(string(f.asText())));
        ArrayNode c = chainTable.addArray();
        ids.forEach(c::add);
        chains.put(frames, chainTable.size() - 1);
        return chainTable.size() - 1;
    }
}
