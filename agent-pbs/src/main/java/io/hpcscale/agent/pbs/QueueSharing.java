package io.hpcscale.agent.pbs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether jobs of a queue get whole nodes when they do not say, from the {@code sharing} attribute of the nodes
 * that serve the queue ({@code default_shared}, {@code default_excl}, {@code default_exclhost}, {@code ignore_excl},
 * {@code force_excl}, {@code force_exclhost}). When a queue's nodes disagree, the most common value wins.
 */
record QueueSharing(Map<String, String> sharingByQueue) {
    QueueSharing {
        sharingByQueue = Map.copyOf(sharingByQueue);
    }

    record NodeSharing(List<String> queues, String sharing) {
    }

    static QueueSharing of(List<NodeSharing> nodes) {
        Map<String, Map<String, Integer>> votes = new HashMap<>();
        for (NodeSharing node : nodes) {
            if (node.sharing() == null) {
                continue;
            }
            for (String queue : node.queues()) {
                votes.computeIfAbsent(queue, q -> new HashMap<>()).merge(node.sharing(), 1, Integer::sum);
            }
        }
        Map<String, String> winner = new HashMap<>();
        votes.forEach((queue, counts) -> winner.put(queue, counts.entrySet().stream()
                .max(Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .orElseThrow().getKey()));
        return new QueueSharing(winner);
    }

    static QueueSharing none() {
        return new QueueSharing(Map.of());
    }

    boolean exclusive(String queue, PbsPlace.Sharing jobSharing) {
        String sharing = sharingByQueue.getOrDefault(queue, "default_shared");
        if (sharing.startsWith("force_excl")) {
            return true;
        }
        if (sharing.equals("ignore_excl")) {
            return false;
        }
        return switch (jobSharing) {
            case EXCLUSIVE -> true;
            case SHARED -> false;
            case UNSAID -> sharing.startsWith("default_excl");
        };
    }
}
