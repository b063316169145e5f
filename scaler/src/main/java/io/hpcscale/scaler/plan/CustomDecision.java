package io.hpcscale.scaler.plan;

import java.util.List;

/**
 * A decision method of an administrator's own: a class in a jar on the scaler's class path, listed in the jar's
 * {@code META-INF/services/io.hpcscale.scaler.plan.CustomDecision}, run for the pools whose
 * {@code pool.<name>.decisions} name it, at the place they name it among the scaler's own (docs/custom-decisions.md).
 *
 * <p>It only asks: for more nodes, which {@link Growth} starts within the pool's max, step and backoff like any
 * other; for a node to be kept this cycle, which {@link IdleDrain} then leaves alone; and for idle nodes to drain, which are drained only if hpcscale's own rules allow it (in service, idle,
 * needed by no queued job, the pool kept at its min and within its step); a drained node is stopped later, as
 * always, only when {@link StopGuard} allows it. It is called only with a fresh read of the scheduler, never for a
 * pool whose instances are unknown. It must return promptly and call nothing outside the scaler: the planner
 * waits for it.
 */
public interface CustomDecision {
    /** The name pools use in {@code pool.<name>.decisions}: letters and digits, unique among the installed. */
    String name();

    /** What this method asks for the pool this cycle; an exception skips it for the cycle, with an event. */
    List<Request> decide(PoolFacts pool);

    /** What a custom decision may ask. */
    sealed interface Request permits Grow, Keep, Drain {
        String reason();
    }

    /** At least {@code nodes} more nodes than the decisions before this one planned. */
    record Grow(int nodes, String reason) implements Request {
    }

    /** The node of this name not drained for being idle this cycle (a warm node, a node kept for a reservation). */
    record Keep(String node, String reason) implements Request {
    }

    /** The node of this name asked to drain, so that it is stopped once free. */
    record Drain(String node, String reason) implements Request {
    }
}
