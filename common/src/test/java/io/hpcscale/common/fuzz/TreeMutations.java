package io.hpcscale.common.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.json.LenientJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Mutations that keep a JSON output well formed but change what it says: one node somewhere in one entry of a
 * section is replaced with a value of another type (a number where a string was, an object where a number was,
 * numbers no Java type holds, strings with invalid UTF-8). The other entries are written back as they were, so a
 * reader that keeps them is seen to keep them.
 */
public final class TreeMutations {
    private static final JsonMapper JSON = LenientJson.mapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** A string value that becomes invalid UTF-8 once written: Jackson itself only writes valid UTF-8. */
    private static final String INVALID_UTF8 = "@@invalid-utf8@@";

    /**
     * A fixture with one entry of its top-level {@code section} mutated.
     *
     * @param entry   the mutated entry's member name, or its index in an array section
     * @param without the fixture without that entry: what must still be read
     */
    public record Mutated(byte[] text, String entry, byte[] without) {
    }

    private TreeMutations() {
    }

    public static Arbitrary<Mutated> ofEntries(List<byte[]> fixtures, String section) {
        List<ObjectNode> trees = fixtures.stream().map(TreeMutations::tree).toList();
        return Arbitraries.randomValue(random -> mutateEntry(trees.get(random.nextInt(trees.size())), section,
                random));
    }

    /** A fixture with one node anywhere in it, perhaps the whole, replaced by a value of another type. */
    public static Arbitrary<byte[]> anywhere(List<byte[]> fixtures) {
        List<ObjectNode> trees = fixtures.stream().map(TreeMutations::tree).toList();
        return Arbitraries.randomValue(random -> write(mutateWithin(trees.get(random.nextInt(trees.size())),
                random)));
    }

    static Mutated mutateEntry(ObjectNode fixture, String section, Random random) {
        ObjectNode document = fixture.deepCopy();
        ObjectNode without = fixture.deepCopy();
        JsonNode entries = document.get(section);
        if (!(entries instanceof ContainerNode<?>) || entries.isEmpty()) {
            throw new IllegalArgumentException("the fixture has no entries in \"" + section + "\"");
        }
        int index = random.nextInt(entries.size());
        String entry;
        if (entries instanceof ObjectNode object) {
            entry = new ArrayList<>(object.properties()).get(index).getKey();
            object.set(entry, mutateWithin(object.get(entry), random));
            ((ObjectNode) without.get(section)).remove(entry);
        } else {
            entry = Integer.toString(index);
            ((ArrayNode) entries).set(index, mutateWithin(entries.get(index), random));
            ((ArrayNode) without.get(section)).remove(index);
        }
        return new Mutated(write(document), entry, write(without));
    }

    /** The node with one node inside it (perhaps itself) replaced by a value of another type. */
    private static JsonNode mutateWithin(JsonNode node, Random random) {
        JsonNode copy = node.deepCopy();
        List<Place> places = new ArrayList<>();
        collect(copy, places);
        int pick = random.nextInt(places.size() + 1);
        if (pick == places.size()) {
            return randomValue(node.getNodeType(), random, 0);
        }
        places.get(pick).replace(random);
        return copy;
    }

    /** A member of an object (by name) or an element of an array (by index). */
    private record Place(ContainerNode<?> parent, String name, int index) {
        void replace(Random random) {
            if (parent instanceof ObjectNode object) {
                object.set(name, randomValue(object.get(name).getNodeType(), random, 0));
            } else {
                ArrayNode array = (ArrayNode) parent;
                array.set(index, randomValue(array.get(index).getNodeType(), random, 0));
            }
        }
    }

    private static void collect(JsonNode node, List<Place> places) {
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> member : object.properties()) {
                places.add(new Place(object, member.getKey(), -1));
                collect(member.getValue(), places);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                places.add(new Place(array, null, i));
                collect(array.get(i), places);
            }
        }
    }

    static JsonNode randomValue(JsonNodeType not, Random random, int depth) {
        while (true) {
            JsonNode value = anyValue(random, depth);
            if (value.getNodeType() != not) {
                return value;
            }
        }
    }

    private static JsonNode anyValue(Random random, int depth) {
        return switch (random.nextInt(depth > 3 ? 12 : 14)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextInt());
            case 3 -> NODES.numberNode(-1);
            case 4 -> NODES.numberNode(new BigInteger("99999999999999999999"));
            case 5 -> NODES.numberNode(new BigDecimal("1e309"));
            case 6 -> NODES.numberNode(random.nextDouble() * 1e6);
            case 7 -> NODES.textNode("");
            case 8 -> NODES.textNode(INVALID_UTF8);
            case 9 -> NODES.textNode("x".repeat(random.nextInt(100_000)));
            case 10 -> NODES.textNode(Long.toString(random.nextLong()));
            case 11 -> NODES.textNode("2026-13-45T25:61:61,1e309,/,*,[]");
            case 12 -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(anyValue(random, depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    object.set("k" + random.nextInt(10), anyValue(random, depth + 1));
                }
                yield object;
            }
        };
    }

    private static ObjectNode tree(byte[] fixture) {
        try {
            return (ObjectNode) JSON.readTree(fixture);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] write(JsonNode document) {
        try {
            byte[] text = JSON.writeValueAsBytes(document);
            return replaceAll(text, INVALID_UTF8.getBytes(StandardCharsets.US_ASCII),
                    new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] replaceAll(byte[] text, byte[] marker, byte[] replacement) {
        byte[] result = text;
        for (int at = indexOf(result, marker, 0); at >= 0; at = indexOf(result, marker, at + replacement.length)) {
            result = ByteMutations.splice(result, at, at + marker.length, replacement);
        }
        return result;
    }

    private static int indexOf(byte[] text, byte[] marker, int from) {
        outer:
        for (int i = from; i <= text.length - marker.length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (text[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
