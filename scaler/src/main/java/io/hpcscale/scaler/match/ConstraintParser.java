package io.hpcscale.scaler.match;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads constraints from JSON as CycleCloud's library does ({@code get_constraints} in constraints.py): an object is
 * the {@code and} of its keys, in order; an array is the {@code and} of its elements. Each key is dispatched by name,
 * then by the type of its value:
 *
 * <ul>
 *   <li>{@code and}, {@code or}, {@code xor} (an array, two parts at least for or/xor), {@code not} (an object),
 *       {@code never} (the message), {@code exclusive} / {@code exclusive-task}, {@code in-a-placement-group};</li>
 *   <li>{@code node.<property>}: equality with a string (a shell pattern), number, boolean, null, or any of a
 *       list of them;</li>
 *   <li>any other key names a resource: a number or {@code memory::}/{@code size::} quantity is a minimum per node;
 *       a string, boolean, null or list is equality.</li>
 * </ul>
 *
 * Where the library would fail later, at match time or with a Python error, this refuses the constraint at once
 * with where it is wrong: an unknown node property, an {@code or} of one part, a quantity it cannot read.
 */
public final class ConstraintParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** @throws ConstraintException when the text is not JSON or not a constraint */
    public Constraint parse(String json) throws ConstraintException {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ConstraintException("the constraint is not JSON: " + e.getOriginalMessage()
                    + " (write e.g. {\"ncpus\": 4, \"node.infiniband\": true})");
        }
        if (node == null || node.isMissingNode()) {
            throw new ConstraintException("the constraint is empty: write a JSON object, e.g. {\"ncpus\": 4}");
        }
        return parse(node);
    }

    public Constraint parse(JsonNode node) throws ConstraintException {
        return parse(node, "$");
    }

    private Constraint parse(JsonNode node, String path) throws ConstraintException {
        if (node.isArray()) {
            List<Constraint> parts = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                parts.add(parse(node.get(i), path + "[" + i + "]"));
            }
            return parts.size() == 1 ? parts.get(0) : new Constraint.AllOf(parts);
        }
        if (!node.isObject()) {
            throw new ConstraintException(path + " is " + node + ": a constraint is a JSON object such as "
                    + "{\"ncpus\": 4}, or an array of them");
        }
        List<Constraint> parts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            parts.add(term(field.getKey(), field.getValue(), path + "." + field.getKey()));
        }
        return parts.size() == 1 ? parts.get(0) : new Constraint.AllOf(parts);
    }

    private Constraint term(String key, JsonNode value, String path) throws ConstraintException {
        switch (key) {
            case "and":
                return new Constraint.AllOf(parts(value, path, 1));
            case "or":
                return new Constraint.FirstOf(parts(value, path, 2));
            case "xor":
                return new Constraint.ExactlyOne(parts(value, path, 2));
            case "not":
                if (!value.isObject()) {
                    throw new ConstraintException(path + " must be one constraint object, e.g. "
                            + "{\"not\": {\"node.gpu_count\": 0}}");
                }
                return new Constraint.Not(parse(value, path));
            case "never":
                return new Constraint.Never(value.isTextual() ? value.asText() : value.toString());
            case "exclusive":
                return new Constraint.Exclusive(flag(value, path) ? Constraint.Exclusivity.JOB
                        : Constraint.Exclusivity.SHARED);
            case "exclusive-task", "exclusive_task":
                return new Constraint.Exclusive(flag(value, path) ? Constraint.Exclusivity.TASK
                        : Constraint.Exclusivity.SHARED);
            case "in-a-placement-group":
                return new Constraint.InPlacementGroup(flag(value, path));
            default:
                return key.startsWith("node.") ? property(key.substring("node.".length()), value, path)
                        : resource(key, value, path);
        }
    }

    private List<Constraint> parts(JsonNode value, String path, int least) throws ConstraintException {
        if (!value.isArray() || value.size() < least) {
            throw new ConstraintException(path + " must be an array of " + (least == 1 ? "constraints"
                    : "at least " + least + " constraints") + ", e.g. {\"or\": [{\"node.spot\": true}, "
                    + "{\"node.spot\": false}]}");
        }
        List<Constraint> parts = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            parts.add(parse(value.get(i), path + "[" + i + "]"));
        }
        return parts;
    }

    /** As the library reads exclusive: a boolean, a number, or "true"/"false" in any case. */
    private static boolean flag(JsonNode value, String path) throws ConstraintException {
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isIntegralNumber()) {
            return value.asLong() != 0;
        }
        if (value.isTextual()) {
            String text = value.asText().strip().toLowerCase(Locale.ROOT);
            if (text.equals("true") || text.equals("false")) {
                return text.equals("true");
            }
            if (text.matches("[0-9]+")) {
                return Long.parseLong(text) != 0;
            }
        }
        throw new ConstraintException(path + " is " + value + ": expected true or false");
    }

    private static Constraint property(String name, JsonNode value, String path) throws ConstraintException {
        if (!NodeProperties.NAMES.contains(name)) {
            throw new ConstraintException(path + ": node." + name + " is not a node property; the properties are "
                    + "node." + String.join(", node.", NodeProperties.NAMES));
        }
        return new Constraint.PropertyIs(name, options(value, path));
    }

    private static Constraint resource(String name, JsonNode value, String path) throws ConstraintException {
        if (value.isNumber()) {
            return new Constraint.MinResource(name, value.numberValue());
        }
        if (value.isTextual() && Quantity.isQuantity(value.asText())) {
            try {
                return new Constraint.MinResource(name, Quantity.parse(value.asText()));
            } catch (IllegalArgumentException e) {
                throw new ConstraintException(path + ": " + e.getMessage());
            }
        }
        if (value.isObject()) {
            throw new ConstraintException(path + " is an object: a resource takes a minimum (a number or "
                    + "\"memory::4g\") or a value to equal (a string, boolean or list)");
        }
        return new Constraint.ResourceIs(name, options(value, path));
    }

    private static List<Object> options(JsonNode value, String path) throws ConstraintException {
        List<Object> options = new ArrayList<>();
        if (value.isArray()) {
            ArrayNode list = (ArrayNode) value;
            for (int i = 0; i < list.size(); i++) {
                options.add(scalar(list.get(i), path + "[" + i + "]"));
            }
            if (options.isEmpty()) {
                throw new ConstraintException(path + " is an empty list: no value would match; list the values "
                        + "allowed");
            }
        } else {
            options.add(scalar(value, path));
        }
        return options;
    }

    private static Object scalar(JsonNode value, String path) throws ConstraintException {
        if (value.isNull()) {
            return null;
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isIntegralNumber()) {
            return value.asLong();
        }
        if (value.isNumber()) {
            return value.asDouble();
        }
        if (value.isTextual()) {
            return value.asText();
        }
        throw new ConstraintException(path + " is " + value + ": expected a string, number, boolean or null");
    }
}
