package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.plan.BackfillForecast.Queued;
import io.hpcscale.scaler.plan.BackfillForecast.Release;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The forecast holds a job only if EASY would hold it however the unknowns turn out: drawn pools with running jobs
 * whose ends are not known exactly and queued jobs without limits, each against drawn outcomes of those unknowns,
 * where every end and limit is known and the forecast is plain EASY.
 */
class BackfillForecastLawsTest {
    private static final Instant NOW = Instant.parse("2026-11-28T09:00:00Z");
    private static final long HOUR = 3600;

    @Property(tries = 300)
    void holdsOnlyJobsThatEveryOutcomeOfTheUnknownsHolds(@ForAll long seed) {
        Random random = new Random(seed);
        Duration window = Duration.ofHours(1 + random.nextInt(48));
        long room = random.nextInt(5) * 16L;
        List<Release> releases = new ArrayList<>();
        for (int i = random.nextInt(8); i > 0; i--) {
            long cpus = 16L * (1 + random.nextInt(3));
            Instant at = NOW.plusSeconds(random.nextInt(30) * HOUR / 2 - HOUR);
            int kind = random.nextInt(3);
            releases.add(kind == 0 ? new Release(cpus, at, true) : new Release(cpus, kind == 1 ? at : null, false));
        }
        List<Queued> queue = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(10); i++) {
            queue.add(new Queued("j" + i, 16L * (1 + random.nextInt(6)),
                    random.nextInt(4) == 0 ? null : Duration.ofMinutes(30 + random.nextInt(24 * 60))));
        }
        Demand.Reservation forecast = BackfillForecast.of(queue, room, releases, NOW, window);
        for (int outcome = 0; outcome < 20; outcome++) {
            Demand.Reservation known = BackfillForecast.of(queueKnown(queue, random), room,
                    releasesKnown(releases, random), NOW, window);
            assertTrue(known.held().containsAll(forecast.held()), "held " + forecast.held() + " but with every end "
                    + "known only " + known.held() + "; room " + room + ", releases " + releases + ", queue " + queue);
        }
    }

    /**
     * The releases as they turn out: each not known exactly frees at a time from now to its latest, or within 60 hours
     * when it has none.
     */
    private static List<Release> releasesKnown(List<Release> releases, Random random) {
        List<Release> known = new ArrayList<>();
        for (Release release : releases) {
            if (release.exact()) {
                known.add(release);
                continue;
            }
            long latest = release.at() == null ? 60 * HOUR : Math.max(0, release.at().getEpochSecond()
                    - NOW.getEpochSecond());
            known.add(new Release(release.cpus(), NOW.plusSeconds((long) (random.nextDouble() * latest)), true));
        }
        return known;
    }

    /** The queue as it turns out: each job without a limit has one. */
    private static List<Queued> queueKnown(List<Queued> queue, Random random) {
        return queue.stream().map(job -> job.limit() != null ? job
                : new Queued(job.id(), job.cpus(), Duration.ofMinutes(1 + random.nextInt(48 * 60)))).toList();
    }
}
