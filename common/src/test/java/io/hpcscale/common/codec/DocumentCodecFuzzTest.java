package io.hpcscale.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.fuzz.ByteMutations;
import io.hpcscale.common.fuzz.FuzzTally;
import io.hpcscale.common.fuzz.FuzzTally.Outcome;
import io.hpcscale.common.fuzz.HugeValues;
import io.hpcscale.common.fuzz.TreeMutations;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.EventDocument;
import io.hpcscale.common.model.LeaseDocument;
import io.hpcscale.common.model.PoolTargetDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.ScalerStateDocument;
import io.hpcscale.common.model.UsageDocument;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Stored documents as another version of hpcscale, a person or a damaged store may have left them: each decodes to
 * the type it names or is refused with DocumentFormatException, and a newer schema is refused rather than misread.
 */
class DocumentCodecFuzzTest {
    private static final FuzzTally DOCUMENTS = new FuzzTally("stored documents (DocumentCodec)");
    private static final Instant T = Instant.parse("2026-11-22T10:15:30.123456789Z");
    private static final DocumentCodec CODEC = new DocumentCodec();
    private static final List<ClusterLoadDocument> DOCUMENTS_OF_EVERY_TYPE = List.of(DocumentCodecTest.job(),
            DocumentCodecTest.vm(), DrainDocument.request("pinta00", "node1", "idle 5m", T),
            new AgentDocument("agent-head-pbs", "pbs", "head", "0.1.0", T, 230, List.of("pinta00"), null, T),
            new EventDocument("evt-1", "pinta00", T, "start", List.of("vmss_1"), "2 jobs queued", "ok", 86400),
            new UsageDocument("pinta00", LocalDate.parse("2026-11-22"), 7260.5, 3600.25, T, 3, 1),
            PowerDocument.request("pinta00", "node1", PowerDocument.Action.resume, T),
            new LeaseDocument("scaler-1", "head", 4242, "boot-1", T, T.plusSeconds(30)),
            ScalerStateDocument.empty("pinta00"), new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, T),
            new PoolTargetDocument("pinta00", 3, T, "admin"));

    @AfterContainer
    static void printTally() {
        DOCUMENTS.print();
    }

    /** Decodes stored text; a document it returns must be of the type the text names. */
    private static Outcome decode(byte[] stored) {
        try {
            ObjectNode json = CODEC.parse(new String(stored, StandardCharsets.UTF_8));
            ClusterLoadDocument document = CODEC.decode(json);
            assertEquals(json.path("Type").asText(), document.type().wireName());
            return Outcome.READ;
        } catch (DocumentFormatException e) {
            return Outcome.REFUSED;
        }
    }

    @Property
    void damagedDocumentsDecodeOrAreRefused(@ForAll("damagedDocuments") byte[] stored) throws Exception {
        DOCUMENTS.count(() -> decode(stored));
    }

    @Property
    void documentsWithANodeOfAnotherTypeDecodeAsTheTypeTheyNameOrAreRefused(
            @ForAll("documentsWithANodeChanged") byte[] stored) throws Exception {
        DOCUMENTS.count(() -> decode(stored));
    }

    @Property
    void anOlderOrMissingSchemaVersionIsReadAsVersionOneAndANewerOneIsRefused(
            @ForAll("documentsOfEveryType") ClusterLoadDocument document,
            @ForAll("schemaVersions") Long version) throws Exception {
        DOCUMENTS.count(() -> {
            ObjectNode json = CODEC.encode(document);
            if (version == null) {
                json.remove("SchemaVersion");
            } else {
                json.put("SchemaVersion", version);
            }
            if (version != null && version > ClusterLoadDocument.SCHEMA_VERSION) {
                DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> CODEC.decode(json));
                assertTrue(e.getMessage().contains("newer hpcscale"), e.getMessage());
                return Outcome.REFUSED;
            }
            assertEquals(document, CODEC.decode(CODEC.parse(json.toString())));
            return Outcome.READ;
        });
    }

    /** Jackson's own bounds (nesting 1000 deep, strings of 20 million characters) refuse these before they cost more. */
    @Example
    void aDocumentNestedAHundredThousandDeepOrHoldingFiftyMegabytesIsRefusedOrRead() {
        assertEquals(Outcome.REFUSED, decode(("{\"Type\":\"jobs\",\"x\":" + HugeValues.nestedArrays(100_000) + "}")
                .getBytes(StandardCharsets.US_ASCII)));
        String stored = CODEC.encode(DocumentCodecTest.job()).toString().replace("\"Agent\":",
                "\"Comment\":" + HugeValues.string(50 << 20) + ",\"Agent\":");
        decode(stored.getBytes(StandardCharsets.US_ASCII));
    }

    @Provide
    Arbitrary<ClusterLoadDocument> documentsOfEveryType() {
        return Arbitraries.of(DOCUMENTS_OF_EVERY_TYPE);
    }

    /** Missing, older (0, negative), current and newer versions. */
    @Provide
    Arbitrary<Long> schemaVersions() {
        return Arbitraries.longs().between(-5, 5).injectNull(0.2).edgeCases(c -> c.add(Long.MAX_VALUE));
    }

    @Provide
    Arbitrary<byte[]> damagedDocuments() {
        return ByteMutations.of(encoded());
    }

    @Provide
    Arbitrary<byte[]> documentsWithANodeChanged() {
        return TreeMutations.anywhere(encoded());
    }

    private static List<byte[]> encoded() {
        return DOCUMENTS_OF_EVERY_TYPE.stream().map(d -> CODEC.encode(d).toString().getBytes(StandardCharsets.UTF_8))
                .toList();
    }
}
