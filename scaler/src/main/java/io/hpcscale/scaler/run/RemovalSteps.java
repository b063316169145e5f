package io.hpcscale.scaler.run;

import io.hpcscale.scaler.documents.RemovalRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The store's side of nodes that asked to be removed, in a pool's actuation: removal requests taken on (recorded
 * before their message is deleted), a fixed pool's count lowered once per removal, and messages answered without
 * being taken on. The deletion itself is a stop ({@link Plan.Removal#asStop}).
 */
final class RemovalSteps {
    private final PoolRuntime pool;
    private final Plan plan;
    private final Instant now;
    private final CycleContext context;
    private final PoolLedger ledger;

    RemovalSteps(PoolRuntime pool, Plan plan, Instant now, CycleContext context, PoolLedger ledger) {
        this.pool = pool;
        this.plan = plan;
        this.now = now;
        this.context = context;
        this.ledger = ledger;
    }

    void run() throws InterruptedException {
        accept();
        lowerCounts();
        answer();
    }

    /**
     * Takes the plan's removal requests on: each is recorded in the pool's state, and only once that is stored is
     * its message deleted. From then on the record drives the removal; a scaler killed before the store has the
     * record gets the message again.
     */
    private void accept() {
        if (plan.acceptances().isEmpty()) {
            return;
        }
        ScalerStateDocument accepted = ledger.state();
        for (Plan.Acceptance acceptance : plan.acceptances()) {
            accepted = accepted.withRemoval(acceptance.instance(), RemovalRecord.accepted(now,
                    acceptance.message().request().requestedBy(), pool.target().isPresent()));
        }
        String failure = ledger.save(accepted);
        for (Plan.Acceptance acceptance : plan.acceptances()) {
            if (failure == null) {
                context.removals().done(acceptance.message());
                ledger.event(acceptance, Outcome.OK);
            } else {
                ledger.event(acceptance, Outcome.failed("not taken on: " + failure + "; its message comes back"));
            }
        }
        if (failure == null) {
            ScalerStateDocument saved = accepted;
            ledger.update(state -> saved);
        }
    }

    /**
     * Lowers the fixed count once for each removal taken on. The value read and the value to write are stored
     * before the write, so that a scaler repeating it after a crash can tell: the count still at the value read is
     * written again, one at the value written was written, and any other value was set by someone since and stands.
     */
    private void lowerCounts() throws InterruptedException {
        TargetSource target = pool.target().orElse(null);
        // Lowerings already begun first, and none after a failure: a later one must not read a count an earlier one
        // has not taken off yet, or both would write the same value.
        List<Map.Entry<String, RemovalRecord>> unlowered = ledger.state().removals().entrySet().stream()
                .filter(e -> !e.getValue().lowered())
                .sorted(Comparator.comparing((Map.Entry<String, RemovalRecord> e) -> e.getValue().countFrom() == null)
                        .thenComparing(e -> e.getValue().at()))
                .toList();
        for (Map.Entry<String, RemovalRecord> entry : unlowered) {
            if (target == null) {
                ledger.update(state -> state.withRemoval(entry.getKey(), entry.getValue().asLowered()));
                continue;
            }
            if (!context.gate().open() || !lowerCount(target, entry.getKey(), entry.getValue())) {
                return;
            }
        }
    }

    /** @return false when the count could not be read or written: the next cycle tries again */
    private boolean lowerCount(TargetSource target, String instance, RemovalRecord removal)
            throws InterruptedException {
        try {
            OptionalInt read = target.read();
            if (read.isEmpty()) {
                ledger.event(EventKind.TARGET_LOWERED, List.of(instance), "for its removal", Outcome.failed(
                        target.describe() + " is not set; the removal is done, the count set next"));
                ledger.update(state -> state.withRemoval(instance, removal.asLowered()));
                return true;
            }
            int count = read.getAsInt();
            if (removal.countFrom() != null && count != removal.countFrom()) {
                ledger.update(state -> state.withRemoval(instance, removal.asLowered()));
                if (count != removal.countTo()) {
                    ledger.refusal(EventKind.TARGET_LOWERED, List.of(instance), target.describe() + " is " + count
                            + ", set since this removal read " + removal.countFrom() + ": it stands");
                }
                return true;
            }
            RemovalRecord lowering = removal.countFrom() != null ? removal
                    : removal.lowering(count, Math.max(0, count - 1));
            if (removal.countFrom() == null) {
                ledger.update(state -> state.withRemoval(instance, lowering));
                if (ledger.save(ledger.state()) != null) {
                    return false;
                }
            }
            target.write(lowering.countTo(), "removal of instance " + instance);
            ledger.update(state -> state.withRemoval(instance, lowering.asLowered()));
            ledger.event(EventKind.TARGET_LOWERED, List.of(instance), target.describe() + " "
                    + lowering.countFrom() + " -> " + lowering.countTo() + " for its removal", Outcome.OK);
            return true;
        } catch (TargetUnavailableException e) {
            ledger.event(EventKind.TARGET_LOWERED, List.of(instance), "for its removal; tried again next cycle",
                    Outcome.failed(e.getMessage()));
            return false;
        }
    }

    /** Messages of removals taken on already are deleted; those that cannot be taken on are set aside. */
    private void answer() {
        for (Plan.RemovalAnswer answer : plan.removalAnswers()) {
            if (answer.setAside()) {
                context.removals().setAside(answer.message(), pool.name(), answer.reason(), now, context.events());
            } else {
                ledger.event(answer, Outcome.OK);
                context.removals().done(answer.message());
            }
        }
    }
}
