package io.hpcscale.scaler.match;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One term of the constraint language, with CycleCloud's library's semantics (constraints.py): whether a pool's node
 * satisfies it. A job's constraints are evaluated against each pool of its queue; {@link ConstraintParser} reads
 * them from JSON.
 *
 * <p>Minimum resources are compared with what one new node of the pool has. The library also subtracts them from
 * the node as it packs jobs; here the job's chunks (CPUs, memory, GPUs) are what packing subtracts, so a minimum
 * chooses pools and does not reserve more than the chunks ask.
 */
public sealed interface Constraint {

    Verdict test(NodeProperties node);

    /** The constraint as the library prints it, for messages. */
    String describe();

    /** Whether the job must have its nodes to itself: {@code exclusive} or {@code exclusive-task} among its parts. */
    default Exclusivity exclusivity() {
        return Exclusivity.SHARED;
    }

    /** Whether the job's nodes must share one placement group: {@code in-a-placement-group: true} among its parts. */
    default boolean inOnePlacementGroup() {
        return false;
    }

    enum Exclusivity {
        SHARED,
        /** Nodes no other job uses; several of the job's own chunks may share one ({@code exclusive-task}). */
        TASK,
        /** Nodes no other job uses, one chunk of the job on each ({@code exclusive}). */
        JOB
    }

    /** Satisfied by every node: a job without constraints. */
    Constraint NONE = new AllOf(List.of());

    /** {@code and}, and the implied {@code and} of several keys in one object: the first part that fails says why. */
    record AllOf(List<Constraint> parts) implements Constraint {
        public AllOf {
            parts = List.copyOf(parts);
        }

        @Override
        public Verdict test(NodeProperties node) {
            for (Constraint part : parts) {
                Verdict verdict = part.test(node);
                if (!verdict.satisfied()) {
                    return verdict;
                }
            }
            return Verdict.SUCCESS;
        }

        @Override
        public String describe() {
            return parts.size() == 1 ? parts.get(0).describe()
                    : "(" + parts.stream().map(Constraint::describe).collect(Collectors.joining(" and ")) + ")";
        }

        @Override
        public Exclusivity exclusivity() {
            Exclusivity strongest = Exclusivity.SHARED;
            for (Constraint part : parts) {
                if (part.exclusivity().compareTo(strongest) > 0) {
                    strongest = part.exclusivity();
                }
            }
            return strongest;
        }

        @Override
        public boolean inOnePlacementGroup() {
            return parts.stream().anyMatch(Constraint::inOnePlacementGroup);
        }
    }

    /** {@code or}: tried in order, the first satisfied part wins; when none is, every part's reasons. */
    record FirstOf(List<Constraint> parts) implements Constraint {
        public FirstOf {
            parts = List.copyOf(parts);
        }

        @Override
        public Verdict test(NodeProperties node) {
            List<String> reasons = new ArrayList<>();
            for (Constraint part : parts) {
                Verdict verdict = part.test(node);
                if (verdict.satisfied()) {
                    return Verdict.SUCCESS;
                }
                reasons.addAll(verdict.reasons());
            }
            return new Verdict(false, "CompoundFailure", reasons);
        }

        @Override
        public String describe() {
            return "(" + parts.stream().map(Constraint::describe).collect(Collectors.joining(" or ")) + ")";
        }
    }

    /** {@code xor}: exactly one part satisfied; two satisfied fail as the library's {@code XORFailed}. */
    record ExactlyOne(List<Constraint> parts) implements Constraint {
        public ExactlyOne {
            parts = List.copyOf(parts);
        }

        @Override
        public Verdict test(NodeProperties node) {
            List<String> satisfied = new ArrayList<>();
            List<String> reasons = new ArrayList<>();
            for (Constraint part : parts) {
                Verdict verdict = part.test(node);
                if (verdict.satisfied()) {
                    satisfied.add(node.describe() + " satisfies constraint " + part.describe());
                } else {
                    reasons.addAll(verdict.reasons());
                }
            }
            if (satisfied.size() == 1) {
                return Verdict.SUCCESS;
            }
            if (satisfied.isEmpty()) {
                return new Verdict(false, "CompoundFailure", reasons);
            }
            return Verdict.failed("XORFailed", "Multiple expressions evaluated as true. See below:\n\t"
                    + String.join("\n\t", satisfied));
        }

        @Override
        public String describe() {
            return "(" + parts.stream().map(Constraint::describe).collect(Collectors.joining(" xor ")) + ")";
        }
    }

    /** {@code not}: satisfied where its part is not. */
    record Not(Constraint part) implements Constraint {
        public Not {
            Objects.requireNonNull(part, "part");
        }

        @Override
        public Verdict test(NodeProperties node) {
            return part.test(node).satisfied() ? Verdict.failed("not(success)", describe()) : Verdict.SUCCESS;
        }

        @Override
        public String describe() {
            return "Not(" + part.describe() + ")";
        }
    }

    /** {@code never}: no node satisfies it; its message is the reason. */
    record Never(String message) implements Constraint {
        @Override
        public Verdict test(NodeProperties node) {
            return Verdict.failed("Never", message);
        }

        @Override
        public String describe() {
            return "Never(" + message + ")";
        }
    }

    /**
     * {@code exclusive} / {@code exclusive-task}: every new node satisfies it; it tells the planner to give the job
     * nodes of its own. False is no constraint, as in the library.
     */
    record Exclusive(Exclusivity kind) implements Constraint {
        @Override
        public Verdict test(NodeProperties node) {
            return Verdict.SUCCESS;
        }

        @Override
        public String describe() {
            return switch (kind) {
                case SHARED -> "(shared)";
                case TASK -> "exclusive-task";
                case JOB -> "exclusive";
            };
        }

        @Override
        public Exclusivity exclusivity() {
            return kind;
        }
    }

    /**
     * {@code in-a-placement-group}: true asks for a pool whose nodes share one placement group, and for all the
     * job's nodes in it at once; false, as the library's README says, for a pool whose nodes do not. (The library's
     * code ignores the value and always asks for a placement group; its README is followed here.)
     */
    record InPlacementGroup(boolean wanted) implements Constraint {
        @Override
        public Verdict test(NodeProperties node) {
            boolean in = node.property("placement_group") != null;
            if (in == wanted) {
                return Verdict.SUCCESS;
            }
            return Verdict.failed(wanted ? "NotInAPlacementGroup" : "InAPlacementGroup",
                    nodeText(node) + (wanted ? " is not in a placement group" : " is in placement group "
                            + node.property("placement_group")));
        }

        @Override
        public String describe() {
            return wanted ? "in-a-placement-group" : "not-in-a-placement-group";
        }

        @Override
        public boolean inOnePlacementGroup() {
            return wanted;
        }
    }

    /** A number or quantity on a resource: the node has at least that much of it. */
    record MinResource(String name, Object amount) implements Constraint {
        @Override
        public Verdict test(NodeProperties node) {
            if (!node.hasResource(name)) {
                return Verdict.failed("UndefinedResource", "Resource[name=" + name + "] is not defined for "
                        + nodeText(node));
            }
            Object has = node.resource(name);
            if (atLeast(has, amount)) {
                return Verdict.SUCCESS;
            }
            return Verdict.failed("InsufficientResource", "Resource[name=" + name + " value=" + text(amount) + "] > "
                    + "Pool[name=" + node.pool() + vmSize(node) + " value=" + text(has) + "]");
        }

        private static boolean atLeast(Object has, Object amount) {
            double wanted = amount instanceof Quantity q ? q.bytes() : ((Number) amount).doubleValue();
            if (has instanceof Quantity q) {
                return q.atLeast(wanted);
            }
            if (has instanceof Number n) {
                return n.doubleValue() >= wanted;
            }
            return false;
        }

        @Override
        public String describe() {
            return "(Node." + name + " >= " + text(amount) + ")";
        }
    }

    /** A {@code node.} property equal to the value, or to one of a list's: strings match as shell patterns. */
    record PropertyIs(String name, List<Object> options) implements Constraint {
        public PropertyIs {
            options = java.util.Collections.unmodifiableList(new ArrayList<>(options));
        }

        @Override
        public Verdict test(NodeProperties node) {
            Object actual = node.property(name);
            if (Values.anyEquals(options, actual)) {
                return Verdict.SUCCESS;
            }
            return Verdict.failed("InvalidOption", options.size() == 1
                    ? "Property[name=node." + name + " value=" + text(options.get(0)) + "] != " + text(actual)
                            + " for " + nodeText(node)
                    : "Property[name=node." + name + " value=" + text(actual) + "] is not one of the options "
                            + texts(options) + " for " + nodeText(node));
        }

        @Override
        public String describe() {
            return options.size() == 1 ? "(node." + name + " == " + text(options.get(0)) + ")"
                    : "(node." + name + " in " + texts(options) + ")";
        }
    }

    /** A resource (the administrator's or the system's) equal to the value, or to one of a list's. */
    record ResourceIs(String name, List<Object> options) implements Constraint {
        public ResourceIs {
            options = java.util.Collections.unmodifiableList(new ArrayList<>(options));
        }

        @Override
        public Verdict test(NodeProperties node) {
            if (!node.hasResource(name)) {
                return Verdict.failed("UndefinedResource", "Resource[name=" + name + "] not defined for "
                        + nodeText(node));
            }
            Object actual = node.resource(name);
            if (Values.anyEquals(options, actual)) {
                return Verdict.SUCCESS;
            }
            return Verdict.failed("InvalidOption", options.size() == 1
                    ? "Resource[name=" + name + " value=" + text(actual) + "] != " + text(options.get(0)) + " for "
                            + nodeText(node)
                    : "Resource[name=" + name + " value=" + text(actual) + "] is not one of the options "
                            + texts(options) + " for " + nodeText(node));
        }

        @Override
        public String describe() {
            return options.size() == 1 ? "(Node." + name + " == " + text(options.get(0)) + ")"
                    : "(Node." + name + " in " + texts(options) + ")";
        }
    }

    private static String nodeText(NodeProperties node) {
        return "Pool[name=" + node.pool() + vmSize(node) + "]";
    }

    private static String vmSize(NodeProperties node) {
        Object size = node.property("vm_size");
        return size == null ? "" : " vm_size=" + size;
    }

    private static String text(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        return value.toString();
    }

    private static String texts(List<Object> values) {
        return values.stream().map(Constraint::text).collect(Collectors.joining(", ", "[", "]"));
    }
}
