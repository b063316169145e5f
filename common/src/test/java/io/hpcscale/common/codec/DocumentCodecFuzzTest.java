package io.hpcscale.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.fuzz.FuzzTally.Outcome;
import io.hpcscale.common.fuzz.HugeValues;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.PowerDocument;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Example;

/** The documents agents and the scaler exchange, damaged as {@link DocumentFuzzing} damages them. */
class DocumentCodecFuzzTest extends DocumentFuzzing {
    private static final Instant T = Instant.parse("2026-11-22T10:15:30.123456789Z");

    @Override
    protected List<ClusterLoadDocument> documentsOfEveryType() {
        return List.of(DocumentCodecTest.job(), DocumentCodecTest.waitingJob(),
                DocumentCodecTest.constrainedJob(), DocumentCodecTest.vm(),
                DrainDocument.request("pinta00", "node1", "idle 5m", T),
                new AgentDocument("agent-head-pbs", "pbs", "head", "0.1.0", T, 230, List.of("pinta00"), null, T),
                PowerDocument.request("pinta00", "node1", PowerDocument.Action.resume, T),
                new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, T));
    }

    /** Jackson's own bounds (nesting 1000 deep, strings of 20 million characters) refuse these before they cost more. */
    @Example
    void aDocumentNestedAHundredThousandDeepOrHoldingFiftyMegabytesIsRefusedOrRead() {
        DocumentCodec codec = new DocumentCodec();
        assertEquals(Outcome.REFUSED, decode(("{\"Type\":\"jobs\",\"x\":" + HugeValues.nestedArrays(100_000) + "}")
                .getBytes(StandardCharsets.US_ASCII)));
        String stored = codec.encode(DocumentCodecTest.job()).toString().replace("\"Agent\":",
                "\"Comment\":" + HugeValues.string(50 << 20) + ",\"Agent\":");
        decode(stored.getBytes(StandardCharsets.US_ASCII));
    }
}
