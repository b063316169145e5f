package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Duration;
import java.time.Instant;

/**
 * Instances billing quietly: running longer than the pool's {@code orphanAfter} (and its {@code bootTimeout}, so an
 * instance created by a call whose answer was lost is timed as a boot first), not started by hpcscale, and with a
 * node no agent reports in any pool. Each is said in an {@code orphan} note (and so in {@code status}); it is stopped
 * only where the pool's {@code stopOrphans} is true, as an administrator's choice: hpcscale cannot know what runs on
 * a node no scheduler it reads knows of. Never in a cycle where the agent reports nodes of the pool that are no
 * instance of it: the pool's node names are then not mapped right, and its busy nodes would look like orphans.
 * Only with a fresh agent read.
 */
final class Orphans implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        for (Instance instance : view.running()) {
            InstanceRecord record = view.memory().instance(instance.id()).orElse(null);
            if (record == null || record.startedByHpcscale() || !record.running()
                    || view.vmOf(instance) != null || view.state().reportedInAnotherPool(instance.nodeName())) {
                continue;
            }
            Instant since = record.startedAt();
            Duration after = view.pool().orphans().after().compareTo(view.pool().bootTimeout()) > 0
                    ? view.pool().orphans().after() : view.pool().bootTimeout();
            if (since.plus(after).isAfter(view.now())) {
                continue;
            }
            String why = "instance " + instance.id() + " has run since " + since + " (longer than orphanAfter "
                    + Durations.format(view.pool().orphans().after()) + "), hpcscale did not start it, and no agent "
                    + "reports its node " + instance.nodeName();
            if (view.pool().orphans().stop() && !draft.noted(EventKind.NODE_WITHOUT_INSTANCE)) {
                draft.add(new Plan.Stop(instance, view.nodeOf(instance), view.nodePoolOf(instance), why
                        + ": an orphan, stopped (stopOrphans = true)", StopKind.ORPHAN));
            } else {
                draft.note(EventKind.ORPHAN, why + ": an orphan, left running; set pool." + view.pool().name()
                        + ".stopOrphans = true to stop such instances");
            }
        }
    }
}
