package io.hpcscale.agent.pbs;

import java.util.Set;

/**
 * What the agent knows of the queues when it reads jobs: which are stopped ({@code qstop}: their jobs wait for an
 * administrator, so they are reported as held rather than as demand) and each queue's default exclusivity.
 */
record PbsQueues(Set<String> stoppedQueues, QueueSharing sharing) {
    PbsQueues {
        stoppedQueues = Set.copyOf(stoppedQueues);
    }

    boolean stopped(String queue) {
        return stoppedQueues.contains(queue);
    }
}
