package io.hpcscale.common.store;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.FakeSchedulerAdapter;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The other process of the two-process test: a real agent writing to the SQLite file, cycle after cycle, with
 * conditional increments of a shared counter in between.
 */
public final class AgentWriterProcess {
    private AgentWriterProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        int cycles = Integer.parseInt(args[1]);
        int incrementsPerCycle = Integer.parseInt(args[2]);
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(10), Clock.systemUTC())) {
            FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
            Agent agent = new Agent(scheduler, new DocumentStore(store),
                    new PoolMap(Map.of("work", "work"), Map.of()), "writer", "test");
            Counter counter = new Counter(store);
            System.out.println("ready");
            System.out.flush();
            Instant start = Instant.parse("2026-11-22T10:00:00Z");
            for (int cycle = 0; cycle < cycles; cycle++) {
                for (int j = 0; j < 50; j++) {
                    int id = cycle * 10 + j;
                    scheduler.putJob(new SchedulerJob("job" + id, List.of("work"),
                            j % 2 == 0 ? JobState.Queued : JobState.Running, List.of(Chunk.ofCpus(1, 2)), 1,
                            Placement.free, false, null));
                }
                for (int j = 0; j < 10; j++) {
                    scheduler.removeJob("job" + (cycle * 10 + j - 10));
                }
                if (!agent.runOnce(start.plusSeconds(cycle)).succeeded()) {
                    throw new IllegalStateException("an agent cycle failed");
                }
                for (int i = 0; i < incrementsPerCycle; i++) {
                    counter.increment();
                }
            }
            System.out.println("jobs=" + scheduler.read().jobs().size() + " increments=" + counter.increments
                    + " conflicts=" + counter.conflicts);
        }
    }
}
