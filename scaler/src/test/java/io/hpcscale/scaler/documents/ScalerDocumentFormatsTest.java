package io.hpcscale.scaler.documents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentCodec;
import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.model.ClusterLoadDocument;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scaler's own documents, written and read by the codec through the formats this module brings. */
class ScalerDocumentFormatsTest {
    private static final Instant T = Instant.parse("2026-11-22T10:15:30.123456789Z");

    private final DocumentCodec codec = new DocumentCodec();

    static List<ClusterLoadDocument> documentsOfEveryType() {
        return List.of(
                new EventDocument("evt-1", "pinta00", T, "start", List.of("vmss_1"), "2 jobs queued", "ok", 86400),
                new UsageDocument("pinta00", LocalDate.parse("2026-11-22"), 7260.5, 3600.25, T, 3, 1),
                new LeaseDocument("scaler-1", "head", 4242, "boot-1", T, T.plusSeconds(30)),
                ScalerStateDocument.empty("pinta00"),
                new PoolTargetDocument("pinta00", 3, T, "admin"));
    }

    @Test
    void roundTripsEveryDocumentOfTheScaler() {
        for (ClusterLoadDocument document : documentsOfEveryType()) {
            ObjectNode json = codec.encode(document);
            assertEquals(1, json.get("SchemaVersion").asInt());
            assertEquals(document.type().wireName(), json.get("Type").asText());
            assertEquals(document, codec.decode(codec.parse(json.toString())));
        }
    }

    @Test
    void roundTripsAPoolsStateWithWhatItRemembersOfItsScaleSetsAndGangs() {
        ScalerStateDocument state = ScalerStateDocument.empty("farm")
                .withRemoval("farm_3", RemovalRecord.accepted(T, "node farm-3", true).lowering(8, 7))
                .withSealed("farm-2", T + ": AllocationFailed")
                .withGrowing(Map.of("farm-3", new GrowthAsked(T, 6)))
                .withGangs(Map.of("mpi-8", new GangWait(T, 8, null),
                        "mpi-16", new GangWait(T, 16, T.plusSeconds(600))))
                .grown(T)
                .withIdleLearning(new IdleLearning(T, List.of(0L, 7L, 3600L), List.of(185L)));
        ObjectNode json = codec.encode(state);
        assertEquals(6, json.path("Growing").path("farm-3").path("Capacity").asInt());
        assertEquals(3600, json.path("IdleLearning").path("ArrivalGapSeconds").path(2).asLong());
        assertEquals(16, json.path("Gangs").path("mpi-16").path("Nodes").asInt());
        assertEquals(state, codec.decode(codec.parse(json.toString())));
    }

    @Test
    void refusesAUsageDayThatIsNotADateOrSecondsThatAreNegative() {
        ObjectNode json = codec.encode(new UsageDocument("p", LocalDate.parse("2026-11-22"), 1, 1, T, 1, 1));
        json.put("Day", "yesterday");
        assertTrue(assertThrows(DocumentFormatException.class, () -> codec.decode(json)).getMessage()
                .contains("Day is not a date"));
        json.put("Day", "2026-11-22");
        json.put("InstanceSeconds", -5);
        assertTrue(assertThrows(DocumentFormatException.class, () -> codec.decode(json)).getMessage()
                .contains("InstanceSeconds is not a non-negative number"));
    }

}
