package io.hpcscale.scaler.run;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The documents of one scaler cycle, each type read once and grouped by pool. */
record ClusterView(
        Map<String, List<JobDocument>> jobs,
        Map<String, List<VmDocument>> vms,
        Map<String, List<DrainDocument>> drains,
        Map<String, List<PowerDocument>> powerRequests,
        Map<String, Instant> agentReadAt,
        Map<String, String> poolOfNode) {

    static ClusterView read(DocumentStore store) {
        Map<String, Instant> readAt = new HashMap<>();
        for (AgentDocument agent : store.all(DocumentType.AGENTS, AgentDocument.class)) {
            if (agent.lastSuccessAt() == null) {
                continue;
            }
            for (String pool : agent.pools()) {
                readAt.merge(pool, agent.lastSuccessAt(), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        Map<String, List<VmDocument>> vms = store.all(DocumentType.VMS, VmDocument.class).stream()
                .collect(Collectors.groupingBy(VmDocument::poolName));
        return new ClusterView(
                store.all(DocumentType.JOBS, JobDocument.class).stream()
                        .collect(Collectors.groupingBy(JobDocument::poolName)),
                vms,
                store.all(DocumentType.DRAINS, DrainDocument.class).stream()
                        .collect(Collectors.groupingBy(DrainDocument::poolName)),
                store.all(DocumentType.POWER, PowerDocument.class).stream()
                        .collect(Collectors.groupingBy(PowerDocument::poolName)),
                readAt,
                poolOfNode(vms));
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

    List<PowerDocument> powerRequestsOf(String pool) {
        return powerRequests.getOrDefault(pool, List.of());
    }

    /** Every reported node with its pool, made once per cycle (unmodifiable, so pools share it without copies). */
    private static Map<String, String> poolOfNode(Map<String, List<VmDocument>> vms) {
        Map<String, String> owners = new HashMap<>();
        vms.forEach((pool, list) -> list.forEach(vm -> owners.putIfAbsent(vm.name(), pool)));
        return Map.copyOf(owners);
    }
}
