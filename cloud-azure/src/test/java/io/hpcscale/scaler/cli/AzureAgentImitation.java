package io.hpcscale.scaler.cli;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.PowerState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the scheduler and its agent would write for one pool on the fake Resource Manager, step by step on the
 * test's clock: a node for each running instance of the scale set, one-node exclusive jobs placed on free nodes in
 * submission order and ended after their run time, and the drain handshake carried out (a node asked to drain and
 * holding no job is taken offline, echoing the request). Just enough scheduler for the scaler to act on; the agents'
 * own behaviour is tested against real schedulers elsewhere.
 */
final class AzureAgentImitation {
    private static final String AGENT = "agent-imitation";

    private record Job(String id, Duration runTime) {
    }

    private static final class Node {
        String job;
        Instant jobEnds;
        Instant lastBusyAt;
        Instant drainEchoed;
    }

    private final FakeArm arm;
    private final String resourceGroup;
    private final String scaleSet;
    private final String pool;
    private final Path store;
    private final Clock clock;
    private final Deque<Job> queued = new ArrayDeque<>();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Set<String> ran = new HashSet<>();
    private final Set<String> written = new HashSet<>();
    private int violations;
    private int submitted;

    AzureAgentImitation(FakeArm arm, String resourceGroup, String scaleSet, String pool, Path store, Clock clock) {
        this.arm = arm;
        this.resourceGroup = resourceGroup;
        this.scaleSet = scaleSet;
        this.pool = pool;
        this.store = store;
        this.clock = clock;
    }

    void submit(int jobs, Duration runTime) {
        for (int i = 0; i < jobs; i++) {
            queued.add(new Job((1000 + submitted++) + ".pbs", runTime));
        }
    }

    int jobsRun() {
        return ran.size();
    }

    int jobsQueued() {
        return queued.size();
    }

    /** Times a node running a job was found gone from the cloud: the one thing that must never happen. */
    int stoppedUnderAJob() {
        return violations;
    }

    /** One turn of the scheduler and the agent: read the cloud, run and end jobs, answer drains, write. */
    void step() {
        Instant now = clock.instant();
        Map<String, Instance> up = new HashMap<>();
        for (Instance instance : arm.state().scaleSet(resourceGroup, scaleSet).orElseThrow().instances()) {
            if (instance.powerState() == PowerState.RUNNING) {
                up.put(instance.computerName().toLowerCase(), instance);
            }
        }
        for (Map.Entry<String, Node> node : new ArrayList<>(nodes.entrySet())) {
            if (!up.containsKey(node.getKey())) {
                if (node.getValue().job != null) {
                    violations++;
                }
                nodes.remove(node.getKey());
            }
        }
        up.keySet().forEach(name -> nodes.computeIfAbsent(name, n -> {
            Node fresh = new Node();
            fresh.lastBusyAt = now;
            return fresh;
        }));
        try (SqliteClusterLoadStore sqlite = new SqliteClusterLoadStore(store, Duration.ofSeconds(5), clock)) {
            DocumentStore documents = new DocumentStore(sqlite);
            Map<String, DrainDocument> drains = new HashMap<>();
            documents.inPool(DocumentType.DRAINS, pool, DrainDocument.class)
                    .forEach(d -> drains.put(d.name().toLowerCase(), d));
            for (Map.Entry<String, Node> entry : nodes.entrySet()) {
                Node node = entry.getValue();
                if (node.job != null && !now.isBefore(node.jobEnds)) {
                    node.job = null;
                    node.lastBusyAt = now;
                }
                DrainDocument drain = drains.get(entry.getKey());
                if (drain == null) {
                    node.drainEchoed = null;
                } else if (node.job == null) {
                    node.drainEchoed = drain.requestedAt();
                }
            }
            for (Map.Entry<String, Node> entry : nodes.entrySet()) {
                Node node = entry.getValue();
                if (node.job == null && node.drainEchoed == null && !drains.containsKey(entry.getKey())
                        && !queued.isEmpty()) {
                    Job job = queued.poll();
                    node.job = job.id();
                    node.jobEnds = now.plus(job.runTime());
                    node.lastBusyAt = now;
                    ran.add(job.id());
                }
            }
            write(documents, now);
        }
    }

    private void write(DocumentStore documents, Instant now) {
        List<JobDocument> jobs = new ArrayList<>();
        for (Job job : queued) {
            jobs.add(new JobDocument(job.id(), pool, job.id(), "workq", JobState.Queued, 1,
                    List.of(new Chunk(1, 120, 400000, 0)), Placement.free, true, now, AGENT));
        }
        List<VmDocument> vms = new ArrayList<>();
        nodes.forEach((name, node) -> vms.add(new VmDocument(name, pool, name,
                node.job == null ? NodeJobStatus.Free : NodeJobStatus.Busy,
                node.drainEchoed != null ? "offline" : node.job == null ? "free" : "job-exclusive",
                node.drainEchoed != null, node.drainEchoed != null, false, node.job != null, 120,
                node.job == null ? 0 : 120, 440000, 0, 0, 0, node.job == null ? List.of() : List.of(node.job),
                node.lastBusyAt, now, node.drainEchoed, AGENT)));
        Set<String> now0 = new HashSet<>();
        jobs.forEach(j -> now0.add("j:" + j.id()));
        vms.forEach(v -> now0.add("v:" + v.id()));
        List<DocumentKey> gone = new ArrayList<>();
        for (String key : written) {
            if (!now0.contains(key)) {
                gone.add(new DocumentKey(pool, key.substring(2)));
            }
        }
        documents.delete(gone);
        documents.upsert(jobs);
        documents.upsert(vms);
        documents.upsert(List.of(new AgentDocument(AGENT, "pbs", "head", "test", now, 1, List.of(pool), null, now,
                now)));
        written.clear();
        written.addAll(now0);
    }
}
