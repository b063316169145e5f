package io.hpcscale.agent.slurm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.agent.JobAsks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Slurm job asks beyond CPUs, memory and GPU counts, as constraints on a pool's resources:
 *
 * <ul>
 *   <li>{@code --constraint} features: each feature is a boolean resource of that name ({@code ib} asks a pool with
 *       {@code resource.ib = true}); {@code &} and {@code ,} are and, {@code |} is or, parentheses and brackets
 *       group; a count ({@code ib*4}) is read as the feature alone, since every node of a pool is alike.</li>
 *   <li>{@code --gres}: a GPU type ({@code gpu:a100:2}) asks {@code gpu_type = a100}; any other GRES
 *       ({@code nvme:1}) a minimum of the resource of that name per node.</li>
 *   <li>{@code --licenses=matlab:2,abaqus}: counts of shared resources (1 when no count is given); licences one of
 *       which will do ({@code a|b}, Slurm 23.02 and later) are not counted, since which one is not known.</li>
 * </ul>
 *
 * A constraint this cannot read becomes a {@code never} with why, so the job matches no pool and
 * {@code plan --explain} says so, rather than the job being left unread.
 */
final class SlurmAsks {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern GRES = Pattern.compile("(?:gres[:/])?([A-Za-z0-9_.-]+)(?::([A-Za-z0-9_.-]+))?"
            + "(?::(\\d+))?(?:\\(.*\\))?");

    private SlurmAsks() {
    }

    static JobAsks of(String features, String gres, String licenses) {
        ArrayNode constraints = JSON.createArrayNode();
        if (features != null && !features.isBlank()) {
            try {
                constraints.add(new FeatureExpression(features.strip()).parse());
            } catch (IllegalArgumentException e) {
                constraints.add(JSON.createObjectNode().put("never", "the Slurm " + e.getMessage()));
            }
        }
        ObjectNode fromGres = gresConstraints(gres);
        if (!fromGres.isEmpty()) {
            constraints.add(fromGres);
        }
        return new JobAsks(constraints.isEmpty() ? null : constraints.toString(), licences(licenses), null);
    }

    private static ObjectNode gresConstraints(String gres) {
        ObjectNode asked = JSON.createObjectNode();
        if (gres == null || gres.isBlank()) {
            return asked;
        }
        for (String entry : gres.split(",")) {
            Matcher m = GRES.matcher(entry.strip());
            if (!m.matches()) {
                continue;
            }
            String name = m.group(1);
            String second = m.group(2);
            boolean typed = second != null && !second.matches("\\d+");
            long count = m.group(3) != null ? Long.parseLong(m.group(3))
                    : second != null && !typed ? Long.parseLong(second) : 1;
            if (name.equals("gpu")) {
                if (typed) {
                    asked.put("gpu_type", second);
                }
            } else {
                asked.put(name, count);
            }
        }
        return asked;
    }

    private static Map<String, Long> licences(String licenses) {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (licenses == null || licenses.isBlank()) {
            return counts;
        }
        if (licenses.contains("|")) {
            return counts;
        }
        for (String entry : licenses.split(",")) {
            String[] parts = entry.strip().split(":", 2);
            if (parts[0].isEmpty()) {
                continue;
            }
            long count = parts.length == 2 && parts[1].strip().matches("\\d+") ? Long.parseLong(parts[1].strip()) : 1;
            counts.merge(parts[0], count, Long::sum);
        }
        return counts;
    }

    /** A {@code --constraint} expression read by recursive descent: or over and over features and groups. */
    private static final class FeatureExpression {
        private final String text;
        private int at;

        FeatureExpression(String text) {
            this.text = text;
        }

        ObjectNode parse() {
            ObjectNode result = or();
            if (at != text.length()) {
                throw new IllegalArgumentException("constraint '" + text + "' cannot be read at '"
                        + text.substring(at) + "'");
            }
            return result;
        }

        private ObjectNode or() {
            List<ObjectNode> parts = new ArrayList<>();
            parts.add(and());
            while (peek('|')) {
                at++;
                parts.add(and());
            }
            return parts.size() == 1 ? parts.get(0) : combine("or", parts);
        }

        private ObjectNode and() {
            List<ObjectNode> parts = new ArrayList<>();
            parts.add(term());
            while (peek('&') || peek(',')) {
                at++;
                parts.add(term());
            }
            return parts.size() == 1 ? parts.get(0) : combine("and", parts);
        }

        private ObjectNode term() {
            if (peek('!')) {
                at++;
                ObjectNode not = JSON.createObjectNode();
                not.set("not", term());
                return not;
            }
            if (peek('(') || peek('[')) {
                char close = text.charAt(at) == '(' ? ')' : ']';
                at++;
                ObjectNode inner = or();
                if (!peek(close)) {
                    throw new IllegalArgumentException("constraint '" + text + "' lacks a '" + close + "'");
                }
                at++;
                skipCount();
                return inner;
            }
            int start = at;
            while (at < text.length() && "&|,()[]*!".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            String feature = text.substring(start, at).strip();
            if (feature.isEmpty()) {
                throw new IllegalArgumentException("constraint '" + text + "' has an empty feature at position "
                        + start);
            }
            skipCount();
            ObjectNode node = JSON.createObjectNode();
            node.put(feature, true);
            return node;
        }

        private void skipCount() {
            if (peek('*')) {
                at++;
                while (at < text.length() && Character.isDigit(text.charAt(at))) {
                    at++;
                }
            }
        }

        private boolean peek(char c) {
            return at < text.length() && text.charAt(at) == c;
        }

        private static ObjectNode combine(String operator, List<ObjectNode> parts) {
            ObjectNode node = JSON.createObjectNode();
            ArrayNode list = node.putArray(operator);
            parts.forEach(list::add);
            return node;
        }
    }
}
