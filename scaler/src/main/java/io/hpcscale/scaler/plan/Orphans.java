package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Instant;

/**
 * Instances billing quietly: running longer than the pool's {@code orphanAfter}, not started by hpcscale, and with
 * a node no agent reports in any pool. Each is said in an {@code orphan} note every cycle (and so in {@code status});
 * it is stopped only where the pool's {@code stopOrphans} is true, as an administrator's choice: hpcscale cannot know
 * what runs on a node no scheduler it reads knows of. Only with a fresh agent read.
 */
final class Orphans implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        for (Instance instance : view.running()) {
            InstanceRecord record = view.memory().instance(instance.id()).orElse(null);
            if (record == null || record.startedByHpcscale() || record.startedAt() == null
                    || view.vmOf(instance) != null || view.state().reportedInAnotherPool(instance.nodeName())) {
                continue;
            }
            Instant since = record.startedAt();
            if (since.plus(view.pool().orphans().after()).isAfter(view.now())) {
                continue;
            }
            String why = "instance " + instance.id() + " has run since " + since + " (longer than orphanAfter "
                    + Durations.format(view.pool().orphans().after()) + "), hpcscale did not start it, and no agent "
                    + "reports its node " + instance.nodeName();
            if (view.pool().orphans().stop()) {
                draft.add(new Plan.Stop(instance, view.nodeOf(instance), view.nodePoolOf(instance), why
                        + ": an orphan, stopped (stopOrphans = true)", StopKind.ORPHAN));
            } else {
                draft.note(EventKind.ORPHAN, why + ": an orphan, left running; set pool." + view.pool().name()
                        + ".stopOrphans = true to stop such instances");
            }
        }
    }
}
