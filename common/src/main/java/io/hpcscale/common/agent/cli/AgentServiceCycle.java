package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.loop.ServiceLoop;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * When the service runs a full agent cycle: every {@code agent.interval}, and sooner when the quick check, run every
 * {@code agent.quickInterval}, finds the scheduler's queues or the scaler's drain requests changed. A queued job thus
 * reaches the store in seconds without the scheduler being read in full every few seconds.
 */
final class AgentServiceCycle implements ServiceLoop.Cycle {
    private final Agent agent;
    private final Duration interval;
    private final Duration quickInterval;
    private final Consumer<CycleReport> afterCycle;
    private Instant nextFull;

    /**
     * @param quickInterval zero for no quick checks: a full cycle every interval only
     * @param afterCycle    told of every full cycle: the metrics
     */
    AgentServiceCycle(Agent agent, Duration interval, Duration quickInterval, Consumer<CycleReport> afterCycle) {
        this.agent = agent;
        this.interval = interval;
        this.quickInterval = quickInterval;
        this.afterCycle = afterCycle;
    }

    @Override
    public Instant runOnce(Instant now) throws InterruptedException {
        if (nextFull == null || !now.isBefore(nextFull) || (!quickInterval.isZero() && agent.changed())) {
            afterCycle.accept(agent.runOnce(now));
            nextFull = now.plus(interval);
        }
        if (quickInterval.isZero()) {
            return nextFull;
        }
        Instant quick = now.plus(quickInterval);
        return quick.isBefore(nextFull) ? quick : nextFull;
    }
}
