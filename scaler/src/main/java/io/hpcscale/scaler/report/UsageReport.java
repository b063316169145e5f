package io.hpcscale.scaler.report;

import io.hpcscale.scaler.documents.UsageDocument;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/** Adds the scaler's daily usage documents up, by pool or by day, with cost where a pool has a price. */
public final class UsageReport {
    /** What the report needs of a pool's settings. */
    public record PoolPricing(String vmSize, Optional<Double> pricePerHour) {
    }

    public enum By { POOL, DAY }

    private UsageReport() {
    }

    /**
     * @param from    the first day counted
     * @param pricing by pool; a pool no longer configured is reported with an unknown size and no price
     */
    public static List<UsageRow> rows(List<UsageDocument> days, LocalDate from, By by,
            Map<String, PoolPricing> pricing) {
        Function<UsageDocument, String> keyOf = by == By.POOL ? UsageDocument::poolName : d -> d.day().toString();
        Map<String, List<UsageDocument>> groups = new TreeMap<>();
        for (UsageDocument day : days) {
            if (!day.day().isBefore(from)) {
                groups.computeIfAbsent(keyOf.apply(day), k -> new ArrayList<>()).add(day);
            }
        }
        List<UsageRow> rows = new ArrayList<>();
        groups.forEach((key, group) -> rows.add(row(key, group, by, pricing)));
        return rows;
    }

    private static UsageRow row(String key, List<UsageDocument> group, By by, Map<String, PoolPricing> pricing) {
        double instanceSeconds = 0;
        double busySeconds = 0;
        Double cost = 0.0;
        for (UsageDocument day : group) {
            instanceSeconds += day.instanceSeconds();
            busySeconds += day.busySeconds();
            Optional<Double> price = Optional.ofNullable(pricing.get(day.poolName()))
                    .flatMap(PoolPricing::pricePerHour);
            cost = cost == null || price.isEmpty() ? null : cost + day.instanceSeconds() / 3600 * price.get();
        }
        String vmSize = by == By.DAY ? "" : Optional.ofNullable(pricing.get(key)).map(PoolPricing::vmSize)
                .orElse("?");
        double idle = instanceSeconds == 0 ? 0 : Math.max(0, 1 - busySeconds / instanceSeconds);
        return new UsageRow(key, vmSize, instanceSeconds / 3600, busySeconds / 3600, idle, cost);
    }
}
