package io.hpcscale.scaler.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpcscale.scaler.documents.UsageDocument;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UsageReportTest {
    private static UsageDocument day(String pool, String day, double hours, double busyHours) {
        return new UsageDocument(pool, LocalDate.parse(day), hours * 3600, busyHours * 3600, Instant.EPOCH, 0, 0);
    }

    private final List<UsageDocument> days = List.of(
            day("hb", "2026-11-01", 10, 8), day("hb", "2026-11-02", 30, 24), day("gpu", "2026-11-02", 4, 1),
            day("hb", "2026-10-01", 100, 100));
    private final Map<String, UsageReport.PoolPricing> pricing = Map.of(
            "hb", new UsageReport.PoolPricing("Standard_HB120rs_v3", Optional.of(3.6)),
            "gpu", new UsageReport.PoolPricing("Standard_NC24ads_A100_v4", Optional.empty()));

    @Test
    void byPoolAddsTheDaysInTheWindowWithIdleShareAndCost() {
        List<UsageRow> rows = UsageReport.rows(days, LocalDate.parse("2026-11-01"), UsageReport.By.POOL, pricing);

        assertEquals(List.of("gpu", "hb"), rows.stream().map(UsageRow::key).toList());
        UsageRow hb = rows.get(1);
        assertEquals(40, hb.instanceHours(), 1e-9, "October is outside the window");
        assertEquals(0.2, hb.idleShare(), 1e-9);
        assertEquals(144, hb.cost(), 1e-9);
        assertEquals("Standard_HB120rs_v3", hb.vmSize());
        assertNull(rows.get(0).cost(), "no price, no cost");
    }

    @Test
    void byDayMixesPoolsAndHasACostOnlyWhenEveryPoolOfTheDayHasAPrice() {
        List<UsageRow> rows = UsageReport.rows(days, LocalDate.parse("2026-11-01"), UsageReport.By.DAY, pricing);

        assertEquals(List.of("2026-11-01", "2026-11-02"), rows.stream().map(UsageRow::key).toList());
        assertEquals(36, rows.get(0).cost(), 1e-9);
        assertEquals(34, rows.get(1).instanceHours(), 1e-9);
        assertNull(rows.get(1).cost());
    }
}
