package io.hpcscale.scaler.run;

import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.plan.PlanResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cycle of pools that serve one queue: the primary, then its fallbacks in order (each its own scale set and VM
 * size). The agent writes the queue's jobs and nodes to the primary's partition; here each node goes to the pool
 * whose instance it is, and each queued job to one pool:
 *
 * <ol>
 *   <li>first, jobs that fit nodes already up or booting, pool by pool in order: a fallback's idle node takes a job
 *       before any pool starts one;</li>
 *   <li>then, pool by pool in order, the jobs left: each pool plans and acts with them, and passes on the jobs it
 *       cannot take (not its VM size, beyond its max, in backoff). A capacity or quota error met while acting puts
 *       the pool in backoff, and its jobs fall through to the next pool in the same cycle.</li>
 * </ol>
 *
 * A pool that cannot be listed or planned keeps its share and takes no part: not knowing a pool's instances is no
 * reason to start nodes in the next.
 */
final class GroupCycle {
    private final List<PoolCycle> members;
    private final ClusterView view;
    private final Instant now;
    private final CycleContext context;

    GroupCycle(List<PoolCycle> members, ClusterView view, Instant now, CycleContext context) {
        this.members = List.copyOf(members);
        this.view = view;
        this.now = now;
        this.context = context;
    }

    List<PoolOutcome> run() throws InterruptedException {
        if (members.size() == 1) {
            return List.of(members.get(0).run());
        }
        List<PoolOutcome> outcomes = new ArrayList<>();
        Map<PoolCycle, PoolCycle.Prepared> ready = new LinkedHashMap<>();
        for (PoolCycle member : members) {
            PoolCycle.Preparation preparation = member.prepare();
            if (preparation.failed() != null) {
                outcomes.add(preparation.failed());
            } else {
                ready.put(member, preparation.prepared());
            }
        }
        if (ready.isEmpty()) {
            return outcomes;
        }
        Map<PoolCycle, List<VmDocument>> vms = nodesByOwner(ready);
        List<JobDocument> jobs = new ArrayList<>();
        members.forEach(m -> jobs.addAll(view.jobsOf(m.pool().name())));
        List<PoolCycle> order = new ArrayList<>(ready.keySet());

        Set<String> left = new LinkedHashSet<>();
        jobs.forEach(j -> left.add(j.schedulerId()));
        Map<PoolCycle, Set<String>> onNodesUp = new LinkedHashMap<>();
        for (int i = 0; i < order.size(); i++) {
            PoolCycle member = order.get(i);
            PoolCycle.Prepared prepared = ready.get(member);
            Set<String> fit = context.planner().fitOnExisting(member.stateFor(prepared, only(jobs, left),
                    vms.get(member), next(order, i), prepared.state()));
            onNodesUp.put(member, fit);
            left.removeAll(fit);
        }
        for (int i = 0; i < order.size(); i++) {
            PoolCycle member = order.get(i);
            PoolCycle.Prepared prepared = ready.get(member);
            Set<String> share = new HashSet<>(onNodesUp.get(member));
            share.addAll(left);
            List<JobDocument> offered = only(jobs, share);
            String fallback = next(order, i);
            PoolCycle.Finished finished = member.finish(prepared, offered, vms.get(member), fallback);
            outcomes.add(finished.outcome());
            left.clear();
            left.addAll(passedOn(member, prepared, offered, vms.get(member), fallback, finished));
        }
        return outcomes;
    }

    /**
     * What the pool could not take; if acting put it in backoff (a capacity or quota error) or protected it (its
     * failed boots counted), the plan is made again from the state the actions left, so the jobs it meant to start
     * nodes for fall through at once.
     */
    private Set<String> passedOn(PoolCycle member, PoolCycle.Prepared prepared, List<JobDocument> offered,
            List<VmDocument> vms, String fallback, PoolCycle.Finished finished) {
        PlanResult planned = finished.result();
        boolean enteredBackoff = !planned.state().inBackoff(now) && finished.stateAfter().inBackoff(now);
        boolean protectedNow = !planned.state().bootHealth().protectedNow()
                && finished.stateAfter().bootHealth().protectedNow();
        if (fallback == null || !(enteredBackoff || protectedNow)) {
            return planned.plan().passedOn();
        }
        return context.planner().plan(member.stateFor(prepared, offered, vms, fallback, finished.stateAfter()))
                .plan().passedOn();
    }

    /**
     * The group's nodes, each with the pool one of whose instances it is; a node no pool's instance is stays with the
     * pool whose partition holds it (the primary's, for nodes the agent reports for the queue).
     */
    private Map<PoolCycle, List<VmDocument>> nodesByOwner(Map<PoolCycle, PoolCycle.Prepared> ready) {
        Map<PoolCycle, List<VmDocument>> owned = new LinkedHashMap<>();
        ready.keySet().forEach(m -> owned.put(m, new ArrayList<>()));
        for (PoolCycle holder : members) {
            for (VmDocument vm : view.vmsOf(holder.pool().name())) {
                PoolCycle owner = ready.entrySet().stream()
                        .filter(e -> e.getValue().instances().byNode(vm.name()).isPresent())
                        .map(Map.Entry::getKey).findFirst()
                        .orElse(owned.containsKey(holder) ? holder : null);
                if (owner != null) {
                    owned.get(owner).add(vm);
                }
            }
        }
        return owned;
    }

    private static List<JobDocument> only(List<JobDocument> jobs, Set<String> ids) {
        return jobs.stream().filter(j -> ids.contains(j.schedulerId())).toList();
    }

    private static String next(List<PoolCycle> order, int i) {
        return i + 1 < order.size() ? order.get(i + 1).pool().name() : null;
    }
}
