package io.hpcscale.scaler.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class WarmScheduleTest {
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    private static WarmSchedule schedule(int always, String text, ZoneId zone) {
        return WarmScheduleParser.parse(always, text, zone);
    }

    @Test
    void keepsTheWindowsCountInWorkingHoursOnTheZonesWallClockAndWarmOutside() {
        WarmSchedule schedule = schedule(1, "Mon-Fri 08:00-18:00 = 4", PARIS);
        // Wednesday 2026-11-25: Paris is UTC+1 in winter.
        assertEquals(1, schedule.at(Instant.parse("2026-11-25T06:59:00Z")));
        assertEquals(4, schedule.at(Instant.parse("2026-11-25T07:00:00Z")));
        assertEquals(4, schedule.at(Instant.parse("2026-11-25T16:59:59Z")));
        assertEquals(1, schedule.at(Instant.parse("2026-11-25T17:00:00Z")));
        assertEquals(1, schedule.at(Instant.parse("2026-11-28T10:00:00Z")), "Saturday");
        // Wednesday 2026-07-15: UTC+2 in summer, so the window opens an hour earlier in UTC.
        assertEquals(4, schedule.at(Instant.parse("2026-07-15T06:00:00Z")));
    }

    @Test
    void aWindowEndingBeforeItStartsRunsPastMidnightIntoTheNextDay() {
        WarmSchedule schedule = schedule(0, "Fri 22:00-06:00 = 2", ZoneOffset.UTC);
        assertEquals(2, schedule.at(Instant.parse("2026-11-27T23:00:00Z")), "Friday night");
        assertEquals(2, schedule.at(Instant.parse("2026-11-28T05:59:00Z")), "Saturday morning");
        assertEquals(0, schedule.at(Instant.parse("2026-11-28T06:00:00Z")));
        assertEquals(0, schedule.at(Instant.parse("2026-11-26T23:00:00Z")), "Thursday night");
    }

    @Test
    void overlappingWindowsKeepTheLargestCount() {
        WarmSchedule schedule = schedule(2, "daily 00:00-24:00 = 3; Mon,Wed 09:00-12:00 = 6", ZoneOffset.UTC);
        assertEquals(6, schedule.at(Instant.parse("2026-11-23T10:00:00Z")), "Monday");
        assertEquals(3, schedule.at(Instant.parse("2026-11-24T10:00:00Z")), "Tuesday");
        assertEquals(3, schedule.at(Instant.parse("2026-11-24T00:00:00Z")), "the whole day from midnight");
        assertEquals(6, schedule.most());
        assertEquals("6 warm nodes (warmSchedule Mon,Wed 09:00-12:00 = 6)",
                schedule.describeAt(Instant.parse("2026-11-25T10:00:00Z")));
        assertEquals("2 warm nodes", schedule(2, "Sat 10:00-11:00 = 3", ZoneOffset.UTC)
                .describeAt(Instant.parse("2026-11-28T11:30:00Z")));
    }

    @Test
    void onTheDaysTheClocksChangeAWindowOpensAndClosesOnceAndItsEdgesAreWhereItsCountChanges() {
        // Paris springs forward on 2026-03-29 (02:00 becomes 03:00) and falls back on 2026-10-25 (03:00 becomes 02:00).
        WarmSchedule spring = schedule(0, "Sun 02:30-04:00 = 2", PARIS);
        Instant opens = spring.nextChange(Instant.parse("2026-03-28T12:00:00Z")).orElseThrow();
        assertEquals(Instant.parse("2026-03-29T01:30:00Z"), opens, "02:30 does not exist: 03:30 CEST");
        assertEquals(0, spring.at(opens.minusSeconds(1)));
        assertEquals(2, spring.at(opens));
        WarmSchedule autumn = schedule(0, "Sun 01:00-02:30 = 2", PARIS);
        Instant first = Instant.parse("2026-10-25T00:30:00Z");
        assertEquals(2, autumn.at(first), "the first 02:30 CEST is still in the window");
        assertEquals(2, autumn.at(Instant.parse("2026-10-25T01:15:00Z")), "02:15 CET, the second time round");
        assertEquals(Instant.parse("2026-10-25T01:30:00Z"), autumn.nextChange(first).orElseThrow(),
                "it closes at the second 02:30");
    }

    @Property
    void theCountHoldsFromEachInstantUntilTheNextChange(
            @ForAll @LongRange(min = 1_700_000_000L, max = 1_900_000_000L) long epochSecond) {
        WarmSchedule schedule = schedule(1, "Mon-Fri 08:00-18:00 = 4; Sun 23:00-01:00 = 2; Sat 00:00-24:00 = 3", PARIS);
        Instant at = Instant.ofEpochSecond(epochSecond);
        Instant next = schedule.nextChange(at).orElseThrow();
        int count = schedule.at(at);
        assertEquals(count, schedule.at(next.minusSeconds(1)), "the count at " + at + " holds until " + next);
        assertEquals(count, schedule.at(Instant.ofEpochSecond((epochSecond + next.getEpochSecond()) / 2)));
        assertTrue(next.isBefore(at.plus(java.time.Duration.ofDays(8))));
    }

    @Test
    void aRangeOfDaysMayWrapOverTheWeekend() {
        WarmSchedule schedule = schedule(0, "Fri-Mon 10:00-11:00 = 1", ZoneOffset.UTC);
        assertEquals(1, schedule.at(Instant.parse("2026-11-29T10:30:00Z")), "Sunday");
        assertEquals(1, schedule.at(Instant.parse("2026-11-30T10:30:00Z")), "Monday");
        assertEquals(0, schedule.at(Instant.parse("2026-12-01T10:30:00Z")), "Tuesday");
    }

    @Test
    void theNextChangeIsTheNextWindowEdgeOnTheZonesClock() {
        WarmSchedule schedule = schedule(1, "Mon-Fri 08:00-18:00 = 4; Fri 22:00-06:00 = 2", PARIS);
        assertEquals(Instant.parse("2026-11-27T07:00:00Z"),
                schedule.nextChange(Instant.parse("2026-11-26T17:00:00Z")).orElseThrow(), "Friday 08:00 in Paris");
        assertEquals(Instant.parse("2026-11-27T21:00:00Z"),
                schedule.nextChange(Instant.parse("2026-11-27T17:00:00Z")).orElseThrow(), "Friday 22:00");
        assertEquals(Instant.parse("2026-11-28T05:00:00Z"),
                schedule.nextChange(Instant.parse("2026-11-27T21:00:00Z")).orElseThrow(), "Saturday 06:00");
        assertEquals(Instant.parse("2026-11-30T07:00:00Z"),
                schedule.nextChange(Instant.parse("2026-11-28T05:00:00Z")).orElseThrow(), "Monday 08:00");
        assertTrue(WarmSchedule.always(3).nextChange(Instant.EPOCH).isEmpty());
    }

    @Test
    void refusesAScheduleItCannotReadNamingThePartAndAnExample() {
        Map<String, String> wrong = Map.of(
                "Mon-Fry 08:00-18:00 = 4", "\"Fry\" in \"Mon-Fry 08:00-18:00 = 4\" is not a day",
                "Mon-Fri 8-18 = 4", "\"Mon-Fri 8-18 = 4\" is not a window: write DAYS HH:MM-HH:MM = N",
                "Mon 08:00-08:00 = 2", "\"Mon 08:00-08:00 = 2\" starts and ends at the same time",
                "Mon 08:00-18:00 = 0", "\"Mon 08:00-18:00 = 0\" keeps 0 warm nodes, no more than warm = 0",
                "Mon 08:00-25:00 = 1", "\"25:00\" in \"Mon 08:00-25:00 = 1\" is not a time of day",
                ";", "it has no window");
        wrong.forEach((text, expected) -> {
            ConfigException e = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                    new VmShape(4, 1024, 0), 8, Map.of("warmSchedule", text)));
            assertTrue(e.getMessage().contains("pool.p.warmSchedule = " + text + ": " + expected), e.getMessage());
            assertTrue(e.getMessage().contains("for example Mon-Fri 08:00-18:00 = 4; Sat 09:00-13:00 = 1"),
                    e.getMessage());
        });
    }

    @Test
    void refusesAWindowAboveMaxAZoneUnknownOrAloneAndAScheduleOnAFixedPool() {
        ConfigException above = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("warmSchedule", "daily 08:00-18:00 = 5")));
        assertTrue(above.getMessage().contains("pool.p.warmSchedule asks for 5 warm nodes, more than pool.p.max = 4"),
                above.getMessage());
        ConfigException zone = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("warmSchedule", "daily 08:00-18:00 = 2",
                        "warmScheduleZone", "Europe/Pariss")));
        assertTrue(zone.getMessage().contains("pool.p.warmScheduleZone = Europe/Pariss is not a time zone"),
                zone.getMessage());
        ConfigException both = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("warmSchedule", "Mon-Fry 08:00-18:00 = 2",
                        "warmScheduleZone", "Europe/Pariss")));
        assertTrue(both.getMessage().contains("is not a time zone") && both.getMessage().contains("is not a day"),
                "both mistakes at once: " + both.getMessage());
        ConfigException zoneAlone = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("warm", "1", "warmScheduleZone", "Europe/Paris")));
        assertTrue(zoneAlone.getMessage().contains("pool.p.warmScheduleZone is set but pool.p.warmSchedule is not"),
                zoneAlone.getMessage());
        ConfigException fixed = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("target", "fixed", "warmSchedule", "daily 08:00-18:00 = 2")));
        assertTrue(fixed.getMessage().contains("pool.p.target = fixed keeps the count it is given: remove them"),
                fixed.getMessage());
    }

    @Test
    void readsTheZoneAndWindowsFromThePoolsSettings() {
        PoolConfig pool = PoolConfigs.withDefaults("p", new VmShape(4, 1024, 0), 8,
                Map.of("warm", "1", "warmSchedule", "Mon-Fri 08:00-18:00 = 4", "warmScheduleZone", "Europe/Paris"));
        assertEquals(4, pool.warm().at(Instant.parse("2026-11-25T07:30:00Z")));
        assertEquals(1, pool.warm().at(Instant.parse("2026-11-25T17:30:00Z")));
        assertEquals(WarmSchedule.always(2), PoolConfigs.withDefaults("p", new VmShape(4, 1024, 0), 8,
                Map.of("warm", "2")).warm());
    }
}
