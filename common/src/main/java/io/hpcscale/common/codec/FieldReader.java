package io.hpcscale.common.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** Reads the fields of one stored document, naming the document and the field in every complaint. */
public final class FieldReader {
    private final JsonNode json;
    private final String what;

    public FieldReader(JsonNode json) {
        this.json = json;
        JsonNode id = json.get(Fields.ID);
        JsonNode type = json.get(Fields.TYPE);
        this.what = (type != null && type.isTextual() ? type.asText() : "document") + " document "
                + (id != null && id.isTextual() ? "'" + id.asText() + "'" : "without an id");
    }

    private FieldReader(JsonNode json, String what) {
        this.json = json;
        this.what = what;
    }

    /** Reads an object held in one of this document's fields; complaints name the document and the path. */
    public FieldReader nested(String path, JsonNode object) {
        if (!object.isObject()) {
            throw fail(path, "is not an object");
        }
        return new FieldReader(object, what + ", in " + path);
    }

    public String requiredText(String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull() || !node.isValueNode() || node.asText().isEmpty()) {
            throw fail(field, "is missing");
        }
        return node.asText();
    }

    public String optionalText(String field) {
        JsonNode node = json.get(field);
        return node == null || node.isNull() ? null : node.asText();
    }

    /** Numbers may arrive as JSON numbers or as strings, as PintaScaler wrote {@code Nodes}. */
    public long number(String field, long fallback) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (node.isNumber()) {
            return node.asLong();
        }
        if (node.isTextual()) {
            try {
                return Long.parseLong(node.asText().trim());
            } catch (NumberFormatException e) {
                throw fail(field, "is not a number: '" + node.asText() + "'");
            }
        }
        throw fail(field, "is not a number");
    }

    /** A non-negative finite number, 0 when missing. */
    public double decimal(String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return 0;
        }
        if (!node.isNumber() || !Double.isFinite(node.asDouble()) || node.asDouble() < 0) {
            throw fail(field, "is not a non-negative number: " + node);
        }
        return node.asDouble();
    }

    public int intNumber(String field, int fallback) {
        long value = number(field, fallback);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw fail(field, "is out of range: " + value);
        }
        return (int) value;
    }

    public boolean bool(String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        if (node.isTextual() && (node.asText().equalsIgnoreCase("true") || node.asText().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(node.asText());
        }
        throw fail(field, "is not true or false");
    }

    public Instant instant(String field) {
        String text = optionalText(field);
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return InstantText.parse(text);
        } catch (DateTimeParseException e) {
            throw fail(field, "is not an ISO-8601 instant: '" + text + "'");
        }
    }

    public Instant requiredInstant(String field) {
        Instant value = instant(field);
        if (value == null) {
            throw fail(field, "is missing");
        }
        return value;
    }

    public List<String> textList(String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw fail(field, "is not a list");
        }
        List<String> values = new ArrayList<>(node.size());
        node.forEach(element -> values.add(element.asText()));
        return values;
    }

    public List<Instant> instantList(String field) {
        List<Instant> values = new ArrayList<>();
        for (String text : textList(field)) {
            try {
                values.add(InstantText.parse(text));
            } catch (DateTimeParseException e) {
                throw fail(field, "holds something that is not an ISO-8601 instant: '" + text + "'");
            }
        }
        return values;
    }

    public JsonNode node(String field) {
        return json.get(field);
    }

    public <E extends Enum<E>> E enumValue(String field, Class<E> type) {
        String text = requiredText(field);
        try {
            return Enum.valueOf(type, text);
        } catch (IllegalArgumentException e) {
            throw fail(field, "has an unknown value '" + text + "'");
        }
    }

    public DocumentFormatException fail(String field, String problem) {
        return new DocumentFormatException(what + ": field " + field + " " + problem);
    }

    /** The document's id. */
    public String id() {
        return requiredText(Fields.ID);
    }

    /** The document's pool, its partition. */
    public String poolName() {
        return requiredText(Fields.POOL_NAME);
    }

    /** A whole number, or null when the field is missing or null. */
    public Integer optionalInteger(String field) {
        long value = number(field, Long.MIN_VALUE);
        return value == Long.MIN_VALUE ? null : intNumber(field, 0);
    }
}
