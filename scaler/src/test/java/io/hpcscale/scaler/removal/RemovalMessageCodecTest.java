package io.hpcscale.scaler.removal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class RemovalMessageCodecTest {
    private static final String SUBSCRIPTION = RemovalRequests.SUBSCRIPTION;
    private static final String UNIFORM_ID = RemovalRequests.UNIFORM_ID;
    private static final String FLEXIBLE_ID = RemovalRequests.FLEXIBLE_ID;
    private static final Instant AT = RemovalRequests.AT;

    private final RemovalMessageCodec codec = new RemovalMessageCodec();

    private static String message(String fields) {
        return "{\"version\":1,\"resourceId\":\"" + UNIFORM_ID + "\",\"scaleSet\":\"render\",\"requestedAt\":"
                + "\"2025-03-01T12:00:00Z\",\"requestedBy\":\"render manager\"" + fields + "}";
    }

    private String refusal(String body) {
        return assertThrows(MalformedMessageException.class, () -> codec.decode(body)).getMessage();
    }

    @Test
    void aUniformInstanceRequestReadsBackAsItWasWritten() throws Exception {
        String body = codec.encode(RemovalRequests.uniform());

        RemovalRequest read = codec.decode(body);

        assertEquals(RemovalRequests.uniform(), read);
        assertTrue(body.startsWith("{\"version\":1,\"resourceId\":\"" + UNIFORM_ID + "\",\"resourceGroup\":"
                + "\"rg-render\",\"scaleSet\":\"render\""), body);
        assertTrue(read.vm().uniform());
        assertEquals("render_3", read.vmName());
        assertEquals("3", read.vm().name());
        assertEquals("rg-render", read.resourceGroup());
    }

    @Test
    void aFlexibleVmIsNamedByItsIdAndItsScaleSetByTheMessage() throws Exception {
        RemovalRequest flexible = new RemovalRequest(VmResourceId.parse(FLEXIBLE_ID), "render-flex", null, AT,
                "render manager", null);

        RemovalRequest read = codec.decode(codec.encode(flexible));

        assertEquals(flexible, read);
        assertFalse(read.vm().uniform());
        assertNull(read.vm().scaleSet());
        assertEquals("render-flex", read.scaleSet());
        assertEquals("render-flex_4f3c2a1b", read.vmName());
        assertEquals("render-flex_4f3c2a1b", read.vm().name());
        assertFalse(codec.encode(flexible).contains("computerName"), "fields not known are left out");
    }

    @Test
    void aMessageFromAnotherSenderNeedsOnlyTheRequiredFieldsAndMayCarryMore() throws Exception {
        RemovalRequest read = codec.decode(message(",\"priority\":\"high\""));

        assertEquals("render manager", read.requestedBy());
        assertNull(read.computerName());
        assertNull(read.reason());
        assertEquals(AT, read.requestedAt());
    }

    @Test
    void idsAreReadWithoutCaseAsResourceManagerWritesThemBothWays() throws Exception {
        RemovalRequest read = codec.decode(message("").replace("/resourceGroups/", "/resourcegroups/")
                .replace("Microsoft.Compute", "microsoft.compute").replace("\"scaleSet\":\"render\"",
                        "\"scaleSet\":\"RENDER\""));

        assertEquals("rg-render", read.resourceGroup());
        assertEquals(VmResourceId.parse(UNIFORM_ID).id().toLowerCase(Locale.ROOT),
                read.vm().id().toLowerCase(Locale.ROOT));
    }

    @Test
    void aBase64EncodedMessageIsReadAsTheAzureFunctionsDefaultWritesIt() throws Exception {
        String encoded = Base64.getEncoder().encodeToString(codec.encode(RemovalRequests.uniform()).getBytes(StandardCharsets.UTF_8));

        assertEquals(RemovalRequests.uniform(), codec.decode(encoded));
    }

    @Test
    void anUnknownVersionIsRefusedSayingWhatToDo() {
        assertEquals("it is version 2, and this scaler reads only version 1: upgrade hpcscale-scaler, or send "
                + "version 1", refusal(message("").replace("\"version\":1", "\"version\":2")));
        assertEquals("it has no version: a removal request starts {\"version\":1,...}",
                refusal(message("").replace("\"version\":1,", "")));
        assertEquals("its version \"1\" is not a whole number",
                refusal(message("").replace("\"version\":1", "\"version\":\"1\"")));
    }

    @Test
    void textThatIsNotAJsonObjectIsRefused() {
        assertEquals("it is empty: a removal request is a JSON object, {\"version\":1,...}", refusal("  "));
        assertEquals("it is neither a JSON object nor base64-encoded JSON: a removal request is {\"version\":1,...}",
                refusal("delete render000003 please"));
        assertEquals("it is neither a JSON object nor base64-encoded JSON: a removal request is {\"version\":1,...}",
                refusal(Base64.getEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8))));
        assertTrue(refusal("{\"version\":1,").startsWith("it is not JSON: "), refusal("{\"version\":1,"));
    }

    @Test
    void aResourceIdThatIsNotAScaleSetVmIsRefused() {
        String storage = "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/rg-render/providers/Microsoft.Storage/"
                + "storageAccounts/renderdata";

        String reason = refusal(message("").replace(UNIFORM_ID, storage));

        assertTrue(reason.startsWith("resourceId '" + storage + "' is not the id of a scale set VM: expected "
                + "/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachineScaleSets/"
                + "<scale set>/virtualMachines/<instance id> (Uniform)"), reason);
        assertTrue(refusal(message("").replace("virtualMachines/3", "virtualMachines/render_3"))
                .startsWith("resourceId '"), "a Uniform instance id is a number");
    }

    @Test
    void aScaleSetOrResourceGroupThatContradictsTheIdIsRefused() {
        assertEquals("scale set other is not the one the VM's id names (render)",
                refusal(message("").replace("\"scaleSet\":\"render\"", "\"scaleSet\":\"other\"")));
        assertEquals("resourceGroup rg-other is not the resource group of resourceId (rg-render)",
                refusal(message(",\"resourceGroup\":\"rg-other\"")));
    }

    @Test
    void missingOrMistypedFieldsAreNamed() {
        assertEquals("it lacks resourceId", refusal(message("").replace("\"resourceId\"", "\"resource\"")));
        assertEquals("it lacks requestedBy", refusal(message("").replace(",\"requestedBy\":\"render manager\"", "")));
        assertEquals("scaleSet is empty", refusal(message("").replace("\"scaleSet\":\"render\"", "\"scaleSet\":\"\"")));
        assertEquals("reason must be a string, not number", refusal(message(",\"reason\":42")));
        assertEquals("requestedAt yesterday is not a time like 2025-03-01T12:00:00Z",
                refusal(message("").replace("2025-03-01T12:00:00Z", "yesterday")));
    }

    @Test
    void aTimeWithAnOffsetIsTheSameInstant() throws Exception {
        assertEquals(AT, codec.decode(message("").replace("2025-03-01T12:00:00Z", "2025-03-01T13:00:00+01:00"))
                .requestedAt());
    }

    @Test
    void thePoisonCopyKeepsTheOriginalTextAndTheReason() {
        String copy = codec.encode(new SetAside("m-1", 6, AT, AT.plusSeconds(60), "too many tries", "not \"json\""));

        assertEquals("{\"version\":1,\"reason\":\"too many tries\",\"setAsideAt\":\"2025-03-01T12:01:00Z\","
                + "\"messageId\":\"m-1\",\"dequeueCount\":6,\"insertedAt\":\"2025-03-01T12:00:00Z\","
                + "\"body\":\"not \\\"json\\\"\"}", copy);
    }

    @Test
    void aVeryLongPoisonMessageIsCutSoThatItsCopyFitsOnTheQueue() {
        String copy = codec.encode(new SetAside("m-1", 1, AT, AT, "unreadable", "x".repeat(70_000)));

        assertTrue(copy.contains("\"bodyLength\":70000,\"body\":\"" + "x".repeat(RemovalMessageCodec.LONGEST_KEPT_BODY)
                + "\"}"), copy.substring(0, 200));
    }
}
