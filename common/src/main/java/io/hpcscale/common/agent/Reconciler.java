package io.hpcscale.common.agent;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares what a read describes with what the store holds and lists only the differences. A document is deleted
 * only when the scheduler no longer has its job or node: documents of jobs and nodes that the scheduler listed but
 * that could not be read are kept as they were.
 */
final class Reconciler {

    ChangeSet diff(DesiredDocuments desired, WrittenDocuments written, Set<String> unreadableJobIds,
            Set<String> unreadableNodes) {
        List<ClusterLoadDocument> upserts = new ArrayList<>();
        List<DocumentKey> deletes = new ArrayList<>();

        Map<DocumentKey, JobDocument> jobsAfter = new HashMap<>(desired.jobs());
        desired.jobs().forEach((key, job) -> {
            if (!job.equals(written.jobs().get(key))) {
                upserts.add(job);
            }
        });
        written.jobs().forEach((key, job) -> {
            if (!desired.jobs().containsKey(key)) {
                if (unreadableJobIds.contains(job.schedulerId())) {
                    jobsAfter.put(key, job);
                } else {
                    deletes.add(key);
                }
            }
        });

        Map<DocumentKey, VmDocument> vmsAfter = new HashMap<>(desired.vms().size() * 2);
        desired.vms().forEach((key, vm) -> {
            VmDocument before = written.vms().get(key);
            if (vm.sameStateAs(before)) {
                vmsAfter.put(key, before);
            } else {
                vmsAfter.put(key, vm);
                upserts.add(vm);
            }
        });
        written.vms().forEach((key, vm) -> {
            if (!desired.vms().containsKey(key)) {
                if (unreadableNodes.contains(vm.name())) {
                    vmsAfter.put(key, vm);
                } else {
                    deletes.add(key);
                }
            }
        });
        return new ChangeSet(upserts, deletes, new WrittenDocuments(jobsAfter, vmsAfter));
    }
}
