package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.RemovalRecord;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.plan.Plan.Note;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequest;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Nodes that asked for their instance to be removed. A request is carried out once per instance, however often its
 * message is delivered: the pool's state keeps a record of each removal, and a message finding one is only
 * answered. A request for an instance the pool does not have is set aside; one whose node the scheduler lists a
 * job on, or whose fixed pool's count cannot be read, waits and its message comes back.
 */
final class RemovalPlanning {
    private final Planning p;

    RemovalPlanning(Planning planning) {
        this.p = planning;
    }

    /** @return how many instances this cycle removes: a fixed pool keeps that many fewer */
    int plan(boolean fresh) {
        Set<String> seen = new HashSet<>();
        for (RemovalMessage.Request message : p.s.removals()) {
            RemovalRequest request = message.request();
            String vmName = request.vmName();
            if (!seen.add(vmName.toLowerCase(Locale.ROOT))) {
                continue;
            }
            Optional<Map.Entry<String, RemovalRecord>> done = p.memory.removals().entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(vmName)).findFirst();
            if (done.isPresent()) {
                p.removalAnswers.add(new Plan.RemovalAnswer(message, EventKind.REMOVAL_DUPLICATE, "instance "
                        + done.get().getKey() + " was removed at " + done.get().getValue().at() + " on an earlier "
                        + "delivery of this request: nothing is done twice", false));
                continue;
            }
            Optional<Instance> instance = p.s.instances().instances().stream()
                    .filter(i -> i.id().equalsIgnoreCase(vmName)).findFirst();
            if (instance.isEmpty()) {
                p.removalAnswers.add(new Plan.RemovalAnswer(message, EventKind.REMOVAL_SET_ASIDE, "no instance "
                        + vmName + " in the pool's scale set (asked by " + request.requestedBy() + " at "
                        + request.requestedAt() + "): already gone, or the message names the wrong VM", true));
                continue;
            }
            String waits = waitsBecause(instance.get(), fresh);
            if (waits != null) {
                p.notes.add(new Note(EventKind.REMOVAL_WAITS, "the removal of instance " + vmName + " asked by "
                        + request.requestedBy() + " waits: " + waits + "; its message comes back"));
                continue;
            }
            Instance removed = instance.get();
            p.running.remove(removed);
            p.booting.remove(removed);
            p.stopped.remove(removed);
            p.removals.add(new Plan.Removal(removed, p.nodeOf(removed), p.nodePoolOf(removed), message,
                    "asked by " + request.requestedBy() + " at " + request.requestedAt()
                            + (request.reason() == null ? "" : " (" + request.reason() + ")"),
                    p.pool.fixed() ? Math.max(0, p.memory.countLessUnwrittenRemovals(p.s.target().count()) - p.removals.size() - 1) : null));
        }
        return p.removals.size();
    }

    private String waitsBecause(Instance instance, boolean fresh) {
        if (p.pool.fixed() && (p.s.target() == null || !p.s.target().known())) {
            return "the pool's count cannot be read, so it could not be lowered";
        }
        if (p.s.agentReadAt() != null && !fresh) {
            return "the pool's agent has not reported recently, so whether its node runs a job is not known";
        }
        return StopGuard.refusal(StopKind.REMOVED, p.vmOf(instance), null).map(r -> r + " (" + String.join(", ",
                p.vmOf(instance).jobIds()) + ")").orElse(null);
    }
}
