package io.hpcscale.scaler.cli;

import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.Words;

/** The first line about a pool in {@code plan} and {@code once}: its demand, or why its instances are unknown. */
final class PlanWords {
    private PlanWords() {
    }

    static String summary(Plan plan) {
        String jobs = Words.count(plan.queuedJobs(), "queued job");
        if (!plan.instancesKnown()) {
            return jobs + "; its instances are unknown (" + plan.instancesUnknownBecause() + "), so nothing is "
                    + "planned for it";
        }
        return jobs + " considered, " + Words.count(plan.demand().newNodes(), "more node") + " needed"
                + (plan.demand().jobsBeyondMax() > 0 ? ", " + Words.count(plan.demand().jobsBeyondMax(), "job")
                        + " beyond max" : "");
    }
}
