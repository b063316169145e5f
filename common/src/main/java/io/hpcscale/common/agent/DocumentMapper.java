package io.hpcscale.common.agent;

import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns one scheduler read into the job and vm documents of the pools this agent serves. */
final class DocumentMapper {
    private static final Logger log = LoggerFactory.getLogger(DocumentMapper.class);

    private final PoolMap pools;
    private final String agentId;
    private final OncePerKey reportedUnmapped = new OncePerKey();

    DocumentMapper(PoolMap pools, String agentId) {
        this.pools = pools;
        this.agentId = agentId;
    }

    /**
     * @param drainsByNode     drain requests read before the snapshot was taken; their {@code RequestedAt} is echoed
     *                         in the node's document so the scaler knows this state was read after its request
     * @param previousByName   the vm documents written before, by node name, to carry idle times forward
     */
    DesiredDocuments map(SchedulerSnapshot snapshot, Map<String, DrainDocument> drainsByNode,
            Map<String, VmDocument> previousByName, Instant now) {
        Map<DocumentKey, JobDocument> jobs = new HashMap<>(snapshot.jobs().size() * 2);
        for (SchedulerJob job : snapshot.jobs()) {
            if (job.state() == JobState.Finished) {
                continue;
            }
            List<String> jobPools = pools.poolsForJob(job.queues());
            if (jobPools.isEmpty()) {
                reportUnmappedQueue(job);
                continue;
            }
            for (String pool : jobPools) {
                String queue = pools.queueOf(pool, job.queues()).orElse(null);
                JobDocument document = new JobDocument(CosmosIds.encode(job.id()), pool, job.id(), queue,
                        job.state(), job.nodes(), job.chunks(), job.placement(), job.exclusive(), job.submittedAt(),
                        agentId, job.waitingFor(), job.asks().constraints(), job.times());
                jobs.put(document.key(), document);
            }
        }
        Map<String, List<String>> jobsHolding = jobsByHost(snapshot.jobs());
        Map<DocumentKey, VmDocument> vms = new HashMap<>(snapshot.nodes().size() * 2);
        for (SchedulerNode node : snapshot.nodes()) {
            Optional<String> pool = pools.poolForNode(node.name(), node.queues());
            if (pool.isEmpty()) {
                continue;
            }
            DrainDocument drain = drainsByNode.get(node.name());
            // A node holds every job that names it as where it runs, listed on it or not: PBS lists neither a
            // suspended job nor one that was starting when its server restarted.
            VmDocument document = vmDocument(node.alsoHeldBy(jobsHolding.getOrDefault(NodeNames.key(node.name()),
                    List.of())), pool.get(), drain, previousByName.get(node.name()), now);
            vms.put(document.key(), document);
        }
        reportedUnmapped.endRound();
        return new DesiredDocuments(jobs, vms);
    }

    /**
     * The jobs whose own record names each node as where they run, by node key, whatever their state and queue:
     * mapped or not, a job on a node occupies it.
     */
    private static Map<String, List<String>> jobsByHost(List<SchedulerJob> jobs) {
        Map<String, List<String>> byHost = new HashMap<>();
        for (SchedulerJob job : jobs) {
            if (job.state() == JobState.Finished) {
                continue;
            }
            for (String host : job.hosts()) {
                byHost.computeIfAbsent(NodeNames.key(host), h -> new ArrayList<>(1)).add(job.id());
            }
        }
        return byHost;
    }


    /**
     * The document of a node this agent has written none for yet, as the next cycle would write it, or empty when no
     * pool serves the node: the record of the intent before a first offline ({@link VmDocument#inServiceEchoing}).
     */
    Optional<VmDocument> firstDocument(SchedulerNode node, Instant now) {
        return pools.poolForNode(node.name(), node.queues()).map(pool -> vmDocument(node, pool, null, null, now));
    }

    private VmDocument vmDocument(SchedulerNode node, String pool, DrainDocument drain, VmDocument previous,
            Instant now) {
        boolean busy = node.jobStatus() == NodeJobStatus.Busy || !node.jobIds().isEmpty();
        return new VmDocument(CosmosIds.encode(node.name()), pool, node.name(),
                busy ? NodeJobStatus.Busy : NodeJobStatus.Free, node.rawState(), node.isOffline(),
                node.offlineByHpcscale(), node.down(), node.exclusive(), node.cpusTotal(), node.cpusUsed(), node.memoryMb(),
                node.memoryMbUsed(), node.gpus(), node.gpusUsed(), node.jobIds(),
                lastBusyAt(node, busy, previous, now), now, drain == null ? null : drain.requestedAt(), agentId);
    }

    /**
     * A busy node keeps the time it became busy, so its document does not change while it stays busy; a node that
     * turns free gets the time it was seen free, which starts its idle clock. A node seen for the first time starts
     * its idle clock now, unless the scheduler knows it was used more recently. A node the scheduler cannot reach
     * has no idle clock: what runs there is unknown, so its document keeps the time it had, and its clock starts
     * afresh when it reports again.
     */
    private static Instant lastBusyAt(SchedulerNode node, boolean busy, VmDocument previous, Instant now) {
        if (node.down()) {
            return previous != null && previous.lastBusyAt() != null ? previous.lastBusyAt() : now;
        }
        boolean wasBusy = previous != null && previous.jobStatus() == NodeJobStatus.Busy;
        if (busy) {
            return wasBusy && previous.lastBusyAt() != null ? previous.lastBusyAt() : now;
        }
        if (previous != null && previous.down()) {
            return now;
        }
        Instant since;
        if (previous == null) {
            since = node.lastUsedAt() != null && node.lastUsedAt().isBefore(now) ? node.lastUsedAt() : now;
        } else if (wasBusy || previous.lastBusyAt() == null) {
            since = now;
        } else {
            since = previous.lastBusyAt();
        }
        if (node.lastUsedAt() != null && node.lastUsedAt().isAfter(since) && !node.lastUsedAt().isAfter(now)) {
            since = node.lastUsedAt();
        }
        return since;
    }

    private void reportUnmappedQueue(SchedulerJob job) {
        String queues = String.join(",", job.queues());
        if (reportedUnmapped.first(queues)) {
            log.info("jobs in {} '{}' are not scaled for: no pool serves it (set pool.<name>.queue or "
                    + "pool.<name>.partition to it if one should)", job.queues().size() > 1 ? "queues" : "queue",
                    queues);
        }
    }
}
