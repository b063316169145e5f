package io.hpcscale.scaler.match;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.scaler.pool.PoolNode;
import io.hpcscale.scaler.pool.VmShape;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The combinators obey boolean laws on every node: whatever the parts, only whether each is satisfied matters. */
class ConstraintLawsTest {

    @Property
    void andIsSatisfiedExactlyWhenEveryPartIs(@ForAll("constraints") Constraint a, @ForAll("constraints") Constraint b,
            @ForAll("nodes") NodeProperties node) {
        assertEquals(ok(a, node) && ok(b, node), ok(new Constraint.AllOf(List.of(a, b)), node));
        assertEquals(ok(new Constraint.AllOf(List.of(a, b)), node), ok(new Constraint.AllOf(List.of(b, a)), node),
                "commutative");
    }

    @Property
    void orIsSatisfiedExactlyWhenSomePartIs(@ForAll("constraints") Constraint a, @ForAll("constraints") Constraint b,
            @ForAll("nodes") NodeProperties node) {
        assertEquals(ok(a, node) || ok(b, node), ok(new Constraint.FirstOf(List.of(a, b)), node));
    }

    @Property
    void notIsTheComplementAndTwiceIsTheIdentity(@ForAll("constraints") Constraint a,
            @ForAll("nodes") NodeProperties node) {
        assertEquals(!ok(a, node), ok(new Constraint.Not(a), node));
        assertEquals(ok(a, node), ok(new Constraint.Not(new Constraint.Not(a)), node));
    }

    @Property
    void deMorganHolds(@ForAll("constraints") Constraint a, @ForAll("constraints") Constraint b,
            @ForAll("nodes") NodeProperties node) {
        assertEquals(ok(new Constraint.Not(new Constraint.AllOf(List.of(a, b))), node),
                ok(new Constraint.FirstOf(List.of(new Constraint.Not(a), new Constraint.Not(b))), node));
        assertEquals(ok(new Constraint.Not(new Constraint.FirstOf(List.of(a, b))), node),
                ok(new Constraint.AllOf(List.of(new Constraint.Not(a), new Constraint.Not(b))), node));
    }

    @Property
    void andDistributesOverOr(@ForAll("constraints") Constraint a, @ForAll("constraints") Constraint b,
            @ForAll("constraints") Constraint c, @ForAll("nodes") NodeProperties node) {
        assertEquals(ok(new Constraint.AllOf(List.of(a, new Constraint.FirstOf(List.of(b, c)))), node),
                ok(new Constraint.FirstOf(List.of(new Constraint.AllOf(List.of(a, b)),
                        new Constraint.AllOf(List.of(a, c)))), node));
    }

    @Property
    void xorOfTwoIsSatisfiedWhenExactlyOneIs(@ForAll("constraints") Constraint a,
            @ForAll("constraints") Constraint b, @ForAll("nodes") NodeProperties node) {
        assertEquals(ok(a, node) ^ ok(b, node), ok(new Constraint.ExactlyOne(List.of(a, b)), node));
    }

    @Property
    void whatIsParsedFromItsDescriptionsJsonBehavesAsBuilt(@ForAll("jsonConstraints") String json,
            @ForAll("nodes") NodeProperties node) throws ConstraintException {
        Constraint parsed = new ConstraintParser().parse(json);
        Constraint viaArray = new ConstraintParser().parse("[" + json + ", {}]");
        assertEquals(ok(parsed, node), ok(viaArray, node), "an array is the and of its elements");
    }

    private static boolean ok(Constraint constraint, NodeProperties node) {
        return constraint.test(node).satisfied();
    }

    @Provide
    Arbitrary<NodeProperties> nodes() {
        return Combinators.combine(Arbitraries.integers().between(1, 128), Arbitraries.integers().between(0, 8),
                Arbitraries.of("westus2", "eastus"), Arbitraries.of(true, false), Arbitraries.of("pg0", "none"))
                .as((cpus, gpus, location, spot, group) -> PoolNode.of("p", new VmShape(cpus, cpus * 4096L, gpus),
                        group.equals("none") ? Map.of("location", location, "spot", spot)
                                : Map.of("location", location, "spot", spot, "placement_group", group),
                        Map.of(), Map.of("project", spot ? "open" : "restricted")));
    }

    @Provide
    Arbitrary<Constraint> constraints() {
        Arbitrary<Constraint> leaves = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 128).map(n -> new Constraint.MinResource("ncpus", (long) n)),
                Arbitraries.integers().between(0, 8).map(n -> new Constraint.MinResource("ngpus", (long) n)),
                Arbitraries.of("westus2", "eastus", "west*").map(l -> new Constraint.PropertyIs("location",
                        List.of(l))),
                Arbitraries.of(true, false).map(s -> new Constraint.PropertyIs("spot", List.of(s))),
                Arbitraries.of(true, false).map(Constraint.InPlacementGroup::new),
                Arbitraries.of("open", "restricted", "other").map(p -> new Constraint.ResourceIs("project",
                        List.of(p))),
                Arbitraries.just(new Constraint.Never("no")),
                Arbitraries.just(new Constraint.MinResource("licence_server", 1L)));
        return Arbitraries.recursive(() -> leaves, inner -> Arbitraries.oneOf(inner,
                inner.list().ofMinSize(1).ofMaxSize(3).map(Constraint.AllOf::new),
                inner.list().ofMinSize(2).ofMaxSize(3).map(Constraint.FirstOf::new),
                inner.map(Constraint.Not::new)), 0, 3);
    }

    @Provide
    Arbitrary<String> jsonConstraints() {
        return Arbitraries.of("{\"ncpus\": 8}", "{\"ngpus\": 1, \"node.spot\": false}",
                "{\"or\": [{\"node.location\": \"eastus\"}, {\"ncpus\": 64}]}",
                "{\"not\": {\"in-a-placement-group\": true}}", "{\"project\": [\"open\", \"x\"]}",
                "{\"xor\": [{\"node.spot\": true}, {\"mem\": \"memory::100g\"}]}");
    }
}
