package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The label a failed cycle's metric carries says which side failed: an alert on the store is not one on PBS. */
class CycleReportTest {
    private static CycleReport report(boolean succeeded, String... problems) {
        return new CycleReport(Instant.EPOCH, succeeded, 0, 0, List.of(), List.of(), List.of(), List.of(),
                List.of(problems), 5);
    }

    @Test
    void aFailedCycleIsTheStoresWhenAnyProblemIsTheStoresElseTheSchedulers() {
        assertNull(report(true).failureKind());
        assertEquals("scheduler", report(false, "qstat timed out after 60s").failureKind());
        assertEquals("store", report(false, "qstat timed out after 60s", Agent.STORE_PROBLEM + "503 from Cosmos DB")
                .failureKind());
    }
}
