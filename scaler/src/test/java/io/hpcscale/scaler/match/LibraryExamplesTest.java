package io.hpcscale.scaler.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.pool.PoolNode;
import io.hpcscale.scaler.pool.VmShape;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every constraint example of CycleCloud's library's README (cyclecloud-scalelib at 34aa308, section
 * "Constraints"), numbered as in /work/notes/scalelib-constraints.md, with the meaning the README gives it, against
 * pools that do and do not meet it.
 */
class LibraryExamplesTest {
    private final ConstraintParser parser = new ConstraintParser();

    /** 16 vCPUs on 8 cores, 64 GiB, no GPU, in westus2, not Spot, InfiniBand in placement group pg0. */
    private final NodeProperties f16 = PoolNode.of("f16", new VmShape(16, 65536, 0),
            Map.of("vm_size", "Standard_F16", "location", "westus2", "pcpu_count", 8L, "infiniband", true,
                    "placement_group", "pg0"),
            Map.of(), Map.of("custom_string1", "custom_value", "custom_string2", "custom_value2",
                    "custom_integer", 32L, "project", "open"));
    /** A Spot NC6: 6 vCPUs, 56 GiB, one GPU, in eastus, no placement group. */
    private final NodeProperties nc6Spot = PoolNode.of("nc6", new VmShape(6, 57344, 1),
            Map.of("vm_size", "Standard_NC6", "location", "eastus", "spot", true), Map.of(),
            Map.of("project", "restricted"));
    /** 2 vCPUs, 2 GiB. */
    private final NodeProperties small = PoolNode.of("small", new VmShape(2, 2048, 0),
            Map.of("vm_size", "Standard_F2", "location", "westus2"), Map.of(), Map.of());

    private boolean meets(String json, NodeProperties node) throws ConstraintException {
        return parser.parse(json).test(node).satisfied();
    }

    @Test
    void example1And2AllChildrenMustBeMetAndTheShorthandMeansTheSame() throws Exception {
        String and = "{\"and\": [{\"ncpus\": 1}, {\"mem\": \"memory::4g\"}]}";
        String shorthand = "{\"ncpus\": 1, \"mem\": \"memory::4g\"}";
        assertTrue(meets(and, f16));
        assertTrue(meets(shorthand, f16));
        assertFalse(meets(and, small));
        assertFalse(meets(shorthand, small));
        assertEquals(parser.parse(and).test(small), parser.parse(shorthand).test(small));
    }

    @Test
    void example3And4ExclusiveAndExclusiveTaskGiveTheJobItsOwnNodes() throws Exception {
        assertEquals(Constraint.Exclusivity.JOB, parser.parse("{\"exclusive\": true}").exclusivity());
        assertEquals(Constraint.Exclusivity.TASK, parser.parse("{\"exclusive-task\": true}").exclusivity());
        assertEquals(Constraint.Exclusivity.SHARED, parser.parse("{\"exclusive\": false}").exclusivity());
        assertEquals(Constraint.Exclusivity.JOB, parser.parse("{\"exclusive\": \"True\"}").exclusivity(),
                "the library's test reads strings and numbers too");
        assertEquals(Constraint.Exclusivity.JOB, parser.parse("{\"exclusive\": 1}").exclusivity());
        assertTrue(meets("{\"exclusive\": true}", small), "any new node is a node of its own");
    }

    @Test
    void example5And6InAPlacementGroupOrNot() throws Exception {
        assertTrue(meets("{\"in-a-placement-group\": true}", f16));
        assertFalse(meets("{\"in-a-placement-group\": true}", nc6Spot));
        assertEquals("Pool[name=nc6 vm_size=Standard_NC6] is not in a placement group",
                parser.parse("{\"in-a-placement-group\": true}").test(nc6Spot).why());
        assertTrue(parser.parse("{\"in-a-placement-group\": true}").inOnePlacementGroup());
        assertTrue(meets("{\"in-a-placement-group\": false}", nc6Spot),
                "the README's meaning: keep the job off placement-group nodes");
        assertFalse(meets("{\"in-a-placement-group\": false}", f16));
    }

    @Test
    void example7To10MinimumResourcesPerNode() throws Exception {
        assertTrue(meets("{\"ncpus\": 1}", small));
        assertTrue(meets("{\"mem\": \"memory::4g\"}", f16));
        assertFalse(meets("{\"mem\": \"memory::4g\"}", small));
        assertTrue(meets("{\"ngpus\": 1}", nc6Spot));
        assertFalse(meets("{\"ngpus\": 4}", nc6Spot));
        assertFalse(meets("{\"ncpus\": 1, \"mem\": \"memory::4g\", \"ngpus\": 4}", f16));
        assertEquals("Resource[name=ngpus value=4] > Pool[name=f16 vm_size=Standard_F16 value=0]",
                parser.parse("{\"ncpus\": 1, \"mem\": \"memory::4g\", \"ngpus\": 4}").test(f16).why(),
                "the first part that fails says why, in the library's words");
    }

    @Test
    void example11NeverRejectsEveryNodeWithItsMessage() throws Exception {
        String json = "{\"or\": [{\"project\": \"open\"}, {\"project\": \"restricted\", "
                + "\"never\": \"User is denied access to this project\"}]}";
        assertTrue(meets(json, f16));
        Verdict denied = parser.parse(json).test(nc6Spot);
        assertFalse(denied.satisfied());
        assertTrue(denied.reasons().contains("User is denied access to this project"), denied.why());
        assertEquals(List.of("my message"), parser.parse("{\"never\": \"my message\"}").test(f16).reasons());
    }

    @Test
    void example12To14NodePropertiesAreEqualToAValueOrOneOfAList() throws Exception {
        assertTrue(meets("{\"node.vm_size\": [\"Standard_F16\", \"Standard_E32\"]}", f16));
        assertFalse(meets("{\"node.vm_size\": [\"Standard_F16\", \"Standard_E32\"]}", small));
        assertEquals("Property[name=node.vm_size value='Standard_F2'] is not one of the options "
                + "['Standard_F16', 'Standard_E32'] for Pool[name=small vm_size=Standard_F2]",
                parser.parse("{\"node.vm_size\": [\"Standard_F16\", \"Standard_E32\"]}").test(small).why());
        assertTrue(meets("{\"node.location\": \"westus2\"}", f16));
        assertFalse(meets("{\"node.location\": \"westus2\"}", nc6Spot));
        assertTrue(meets("{\"node.pcpu_count\": 8}", f16), "exactly, not at least");
        assertFalse(meets("{\"node.pcpu_count\": 44}", f16));
        assertTrue(meets("{\"node.vm_size\": \"Standard_F*\"}", f16), "strings match as shell patterns");
    }

    @Test
    void example15To18ResourcesOfTheAdministratorAreEqualToAValueOrOneOfAList() throws Exception {
        assertTrue(meets("{\"custom_string1\": \"custom_value\"}", f16));
        assertTrue(meets("{\"custom_string2\": [\"custom_value1\", \"custom_value2\"]}", f16));
        assertTrue(meets("{\"custom_integer\": [16, 32]}", f16));
        assertTrue(meets("{\"custom_string1\": \"custom_value\", \"custom_string2\": [\"custom_value1\", "
                + "\"custom_value2\"], \"custom_integer\": [16, 32]}", f16));
        assertEquals("Resource[name=custom_string1] not defined for Pool[name=small vm_size=Standard_F2]",
                parser.parse("{\"custom_string1\": \"custom_value\"}").test(small).why());
    }

    @Test
    void example19And20Not() throws Exception {
        assertTrue(meets("{\"not\": {\"node.gpu_count\": 0}}", nc6Spot), "only machines with GPUs");
        assertFalse(meets("{\"not\": {\"node.gpu_count\": 0}}", f16));
        assertTrue(meets("{\"not\": {\"ngpus\": 1}}", f16), "only machines without GPUs");
        assertFalse(meets("{\"not\": {\"ngpus\": 1}}", nc6Spot));
        assertEquals("Not((Node.ngpus >= 1))", parser.parse("{\"not\": {\"ngpus\": 1}}").test(nc6Spot).why());
    }

    @Test
    void example21OrTakesTheFirstBranchThatMatches() throws Exception {
        String json = "{\"or\": [{\"node.vm_size\": \"Standard_NC6\", \"node.spot\": true}, "
                + "{\"node.vm_size\": \"Standard_F16\", \"node.spot\": false}]}";
        assertTrue(meets(json, nc6Spot));
        assertTrue(meets(json, f16));
        assertFalse(meets(json, small));
        assertEquals(2, parser.parse(json).test(small).reasons().size(), "every branch says why it failed");
    }

    @Test
    void example22XorAllowsExactlyOne() throws Exception {
        String json = "{\"xor\": [{\"node.location\": \"westus2\"}, {\"node.location\": \"eastus\"}]}";
        assertTrue(meets(json, f16));
        assertTrue(meets(json, nc6Spot));
        Verdict both = parser.parse("{\"xor\": [{\"node.location\": \"westus2\"}, {\"ncpus\": 1}]}").test(f16);
        assertEquals("XORFailed", both.status());
        assertTrue(both.why().startsWith("Multiple expressions evaluated as true."), both.why());
    }

    @Test
    void quantitiesReadAsTheLibraryReadsThem() {
        assertEquals(4.0 * 1024 * 1024 * 1024, Quantity.parse("memory::4g").bytes());
        assertEquals(4e9, Quantity.parse("memory::4G").bytes());
        assertEquals(0, Quantity.parse("memory::4096m").compareTo(Quantity.parse("memory::4g")));
        assertEquals(4.5 * 1024 * 1024 * 1024, Quantity.parse("size::4.5g").bytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Quantity.parse("memory::4gb"));
        assertTrue(e.getMessage().contains("not 4gb"), e.getMessage());
    }

    @Test
    void whatTheLibraryWouldFailOnLaterIsRefusedWithWhereItIsWrong() {
        assertEquals("$.or must be an array of at least 2 constraints, e.g. {\"or\": [{\"node.spot\": true}, "
                + "{\"node.spot\": false}]}",
                assertThrows(ConstraintException.class, () -> parser.parse("{\"or\": [{\"ncpus\": 1}]}"))
                        .getMessage());
        assertTrue(assertThrows(ConstraintException.class, () -> parser.parse("{\"node.color\": \"red\"}"))
                .getMessage().startsWith("$.node.color: node.color is not a node property"));
        assertTrue(assertThrows(ConstraintException.class, () -> parser.parse("{\"mem\": \"memory::4gb\"}"))
                .getMessage().startsWith("$.mem: 'memory::4gb' has the magnitude 'gb'"));
        assertTrue(assertThrows(ConstraintException.class, () -> parser.parse("{\"ncpus\": "))
                .getMessage().startsWith("the constraint is not JSON"));
        assertTrue(assertThrows(ConstraintException.class, () -> parser.parse("[{\"and\": [{\"x\": {\"y\": 1}}]}]"))
                .getMessage().startsWith("$[0].and[0].x is an object"));
    }
}
