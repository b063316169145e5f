package io.hpcscale.scaler.run;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.common.store.PartitionReads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The documents of one scaler cycle: each managed pool's jobs, nodes, drain and power requests, brought up to date by
 * {@link PartitionReads} (only what changed), and the agents' heartbeats. Nothing outside the managed pools is read.
 *
 * @param agents  the heartbeats of agents serving a managed pool
 * @param notices what the platform announced for nodes ({@link NoticeDocument}), by node name key, read with the
 *                heartbeats from {@code _meta}, like the pools only what changed: there is one health check per
 *                running node of a checked pool, and reading them all each cycle would cost about 1 RU per node
 * @param health  the nodes' health checks ({@link HealthDocument}), by node name key, read in the same query
 * @param waitReasons what each pool last told its users about why their jobs wait, as stored
 */
record ClusterView(
        Map<String, List<JobDocument>> jobs,
        Map<String, List<VmDocument>> vms,
        Map<String, List<DrainDocument>> drains,
        Map<String, List<PowerDocument>> powerRequests,
        Map<String, Instant> agentReadAt,
        Map<String, String> poolOfNode,
        List<AgentDocument> agents,
        Map<String, NoticeDocument> notices,
        Map<String, HealthDocument> health,
        Map<String, WaitReasonsDocument> waitReasons) {

    private static final Set<DocumentType> META_DOCUMENTS = Set.of(DocumentType.AGENTS, DocumentType.NOTICES,
            DocumentType.HEALTH);
    private static final Set<DocumentType> POOL_DOCUMENTS = Set.of(DocumentType.JOBS, DocumentType.VMS,
            DocumentType.DRAINS, DocumentType.POWER, DocumentType.WAIT_REASONS);

    static ClusterView read(PartitionReads reads, Collection<String> pools) {
        Map<String, Instant> readAt = new HashMap<>();
        List<AgentDocument> agents = new ArrayList<>();
        Map<String, NoticeDocument> notices = new HashMap<>();
        Map<String, HealthDocument> health = new HashMap<>();
        reads.beginCycle();
        for (ClusterLoadDocument document : reads.decoded(reads.read(ClusterLoadDocument.META_POOL,
                META_DOCUMENTS))) {
            if (document instanceof NoticeDocument notice) {
                notices.put(NodeNames.key(notice.name()), notice);
                continue;
            }
            if (document instanceof HealthDocument check) {
                health.put(NodeNames.key(check.name()), check);
                continue;
            }
            if (!(document instanceof AgentDocument agent) || agent.pools().stream().noneMatch(pools::contains)) {
                continue;
            }
            agents.add(agent);
            if (agent.lastSuccessAt() == null) {
                continue;
            }
            for (String pool : agent.pools()) {
                readAt.merge(pool, agent.lastSuccessAt(), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        Map<String, List<JobDocument>> jobs = new HashMap<>();
        Map<String, List<VmDocument>> vms = new HashMap<>();
        Map<String, List<DrainDocument>> drains = new HashMap<>();
        Map<String, List<PowerDocument>> power = new HashMap<>();
        Map<String, WaitReasonsDocument> waitReasons = new HashMap<>();
        for (String pool : pools) {
            for (ClusterLoadDocument document : reads.decoded(reads.read(pool, POOL_DOCUMENTS))) {
                if (document instanceof JobDocument job) {
                    jobs.computeIfAbsent(pool, p -> new ArrayList<>()).add(job);
                } else if (document instanceof VmDocument vm) {
                    vms.computeIfAbsent(pool, p -> new ArrayList<>()).add(vm);
                } else if (document instanceof DrainDocument drain) {
                    drains.computeIfAbsent(pool, p -> new ArrayList<>()).add(drain);
                } else if (document instanceof PowerDocument request) {
                    power.computeIfAbsent(pool, p -> new ArrayList<>()).add(request);
                } else if (document instanceof WaitReasonsDocument reasons) {
                    waitReasons.put(pool, reasons);
                }
            }
        }
        return new ClusterView(jobs, vms, drains, power, readAt, poolOfNode(vms), agents, Map.copyOf(notices),
                Map.copyOf(health), Map.copyOf(waitReasons));
    }

    List<JobDocument> jobsOf(String pool) {
        return jobs.getOrDefault(pool, List.of());
    }

    List<VmDocument> vmsOf(String pool) {
        return vms.getOrDefault(pool, List.of());
    }

    List<DrainDocument> drainsOf(String pool) {
        return drains.getOrDefault(pool, List.of());
    }

    /** What the pool last told its users, as stored; none when it never told them anything. */
    WaitReasonsDocument waitReasonsOf(String pool) {
        return waitReasons.getOrDefault(pool, WaitReasonsDocument.none(pool));
    }

    List<PowerDocument> powerRequestsOf(String pool) {
        return powerRequests.getOrDefault(pool, List.of());
    }

    /** Every reported node with its pool, made once per cycle (unmodifiable, so pools share it without copies). */
    private static Map<String, String> poolOfNode(Map<String, List<VmDocument>> vms) {
        Map<String, String> owners = new HashMap<>();
        vms.forEach((pool, list) -> list.forEach(vm -> owners.putIfAbsent(NodeNames.key(vm.name()), pool)));
        return Map.copyOf(owners);
    }
}
