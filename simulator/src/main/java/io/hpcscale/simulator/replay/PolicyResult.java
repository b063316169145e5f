package io.hpcscale.simulator.replay;

import java.util.List;

/**
 * How one policy did on a trace.
 *
 * @param nodeHours           instance-hours paid: from each start request to its stop
 * @param idleNodeHours       of those, hours no job ran on the node (booting included)
 * @param meanBoundedSlowdown mean of max(1, (wait + run) / max(run, 10 s))
 * @param evictions           Spot evictions the cloud made during the replay
 * @param series              nodes up and nodes demanded over time, for the report's chart
 * @param waitsSeconds        every job's wait, for the report's distribution
 */
public record PolicyResult(
        String name,
        double nodeHours,
        double idleNodeHours,
        double meanWaitSeconds,
        double medianWaitSeconds,
        double p95WaitSeconds,
        double meanBoundedSlowdown,
        long starts,
        long stops,
        int peakNodes,
        int jobsCompleted,
        List<String> violations,
        long evictions,
        List<Sample> series,
        List<Double> waitsSeconds) {

    public PolicyResult {
        violations = List.copyOf(violations);
        series = List.copyOf(series);
        waitsSeconds = List.copyOf(waitsSeconds);
    }

    /** Instances active on average over the replay, weighing each sample by how long it held. */
    public double meanActive() {
        if (series.size() < 2) {
            return series.isEmpty() ? 0 : series.get(0).active();
        }
        double weighted = 0;
        for (int i = 0; i + 1 < series.size(); i++) {
            weighted += series.get(i).active() * (series.get(i + 1).seconds() - series.get(i).seconds());
        }
        double span = series.get(series.size() - 1).seconds() - series.get(0).seconds();
        return span <= 0 ? series.get(0).active() : weighted / span;
    }

    /** At {@code seconds} after the first submission: nodes active (starting or running) and nodes the jobs ask for. */
    public record Sample(double seconds, int active, int demanded) {
    }
}
