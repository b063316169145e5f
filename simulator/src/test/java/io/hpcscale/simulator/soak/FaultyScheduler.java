package io.hpcscale.simulator.soak;

import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The agent's view of the scheduler with its commands' faults: a command that hangs until its timeout kills it, one
 * that prints garbage, and an offline or return that took effect though its command failed.
 */
final class FaultyScheduler implements SchedulerAdapter {
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private final SchedulerAdapter delegate;
    private final Faults faults;

    FaultyScheduler(SchedulerAdapter delegate, Faults faults) {
        this.delegate = delegate;
        this.faults = faults;
    }

    @Override
    public String scheduler() {
        return delegate.scheduler();
    }

    @Override
    public SchedulerSnapshot read() throws SchedulerReadException, InterruptedException {
        faults.call("scheduler read");
        if (faults.hits(Fault.SCHEDULER_FAIL, 2)) {
            if (faults.random().nextBoolean()) {
                faults.clock().advance(COMMAND_TIMEOUT);
                throw new SchedulerReadException("qstat -f -F json hung and was killed after its timeout of 60s");
            }
            throw new SchedulerReadException("qstat -f -F json printed what cannot be read: unexpected character "
                    + "'<' at line 1");
        }
        return delegate.read();
    }

    @Override
    public Optional<String> quickSignature() throws SchedulerReadException, InterruptedException {
        return delegate.quickSignature();
    }

    @Override
    public Optional<Set<String>> queueNames() throws SchedulerReadException, InterruptedException {
        return delegate.queueNames();
    }

    @Override
    public void offline(String node, String reason) throws SchedulerCommandException, InterruptedException {
        faults.call("scheduler offline");
        boolean fails = faults.hits(Fault.SCHEDULER_FAIL, 3);
        if (!fails || faults.random().nextBoolean()) {
            delegate.offline(node, reason);
        }
        if (fails) {
            faults.clock().advance(COMMAND_TIMEOUT);
            throw new SchedulerCommandException("pbsnodes -o " + node + " hung and was killed after 60s", null);
        }
    }

    @Override
    public boolean requeue(String jobId) throws SchedulerCommandException, InterruptedException {
        faults.call("scheduler requeue");
        if (faults.hits(Fault.SCHEDULER_FAIL, 3)) {
            throw new SchedulerCommandException("qrerun " + jobId + " hung and was killed after 60s", null);
        }
        return delegate.requeue(jobId);
    }

    @Override
    public void showWaitReason(String jobId, String reason) throws SchedulerCommandException, InterruptedException {
        faults.call("scheduler reason");
        if (faults.hits(Fault.SCHEDULER_FAIL, 3)) {
            throw new SchedulerCommandException("scontrol update jobid=" + jobId + " hung and was killed after 60s",
                    null);
        }
        delegate.showWaitReason(jobId, reason);
    }

    @Override
    public Duration waitReasonLasts() {
        return delegate.waitReasonLasts();
    }

    @Override
    public void bringBack(String node) throws SchedulerCommandException, InterruptedException {
        faults.call("scheduler return");
        boolean fails = faults.hits(Fault.SCHEDULER_FAIL, 3);
        if (!fails || faults.random().nextBoolean()) {
            delegate.bringBack(node);
        }
        if (fails) {
            throw new SchedulerCommandException("pbsnodes -r " + node + " exited 1: garbage on stderr", null);
        }
    }
}
