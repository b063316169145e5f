package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent in another process and a second writer in this one share the SQLite file: every document both write
 * survives, and conditional writes detect each other instead of losing updates.
 */
class SqliteTwoProcessTest {
    @TempDir
    Path dir;

    @Test
    void agentAndSecondWriterLoseNoUpdateAndDetectConflicts() throws Exception {
        Path db = dir.resolve("clusterload.db");
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(10), Clock.systemUTC())) {
            Counter.create(store);
            Process agent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), AgentWriterProcess.class.getName(), db.toString(),
                    "40", "10")
                    .redirectErrorStream(true).start();
            BufferedReader output = new BufferedReader(new InputStreamReader(agent.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("ready", output.readLine());

            Counter counter = new Counter(store);
            List<io.hpcscale.common.model.DrainDocument> drains = new ArrayList<>();
            DocumentStore typed = new DocumentStore(store);
            for (int i = 0; i < 400; i++) {
                counter.increment();
                if (i % 10 == 0) {
                    var drain = io.hpcscale.common.model.DrainDocument.request("work", "node" + i, "test",
                            java.time.Instant.now());
                    typed.upsert(List.of(drain));
                    drains.add(drain);
                }
            }
            String last = output.readLine();
            String rest;
            while ((rest = output.readLine()) != null) {
                last = last + "\n" + rest;
            }
            assertTrue(agent.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, agent.exitValue(), last);
            Matcher m = Pattern.compile("jobs=(\\d+) increments=(\\d+) conflicts=(\\d+)").matcher(last);
            assertTrue(m.find(), last);
            int agentJobs = Integer.parseInt(m.group(1));
            int agentIncrements = Integer.parseInt(m.group(2));
            int agentConflicts = Integer.parseInt(m.group(3));

            assertEquals(400 + agentIncrements, Counter.value(store), "an increment was lost");
            assertTrue(counter.conflicts + agentConflicts > 0, "no ETag conflict was detected");
            assertEquals(agentJobs, store.queryByType(DocumentType.JOBS).size());
            assertEquals(drains.size(), store.queryByType(DocumentType.DRAINS).size());
            System.out.printf("two processes: %d + %d increments, %d + %d conflicts detected%n", counter.increments,
                    agentIncrements, counter.conflicts, agentConflicts);
        }
    }
}
