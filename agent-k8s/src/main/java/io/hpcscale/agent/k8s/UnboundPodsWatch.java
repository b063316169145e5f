package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hpcscale.common.logging.OncePerKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's quick check between full reads: the pods no node holds, and whether the scheduler found no room for
 * each, kept up to date by a watch started where the last full read listed them, at no request while nothing
 * happens. Its signature is the one a list of those pods gives ({@link #signatureOf}), so only what a full read
 * would act on changes it: a pod queued, placed or gone, not a status update. A list's resourceVersion is no such
 * signal: it is the cluster's revision, which every kubelet's lease renewal moves.
 *
 * <p>fabric8 resumes a watch whose connection dropped, but not one the API server ended with {@code 410 Gone} (its
 * resourceVersion compacted away): then, until the next full read watches again, the quick check lists the pods.
 */
final class UnboundPodsWatch {
    private static final Logger log = LoggerFactory.getLogger(UnboundPodsWatch.class);

    private final KubernetesClient client;
    private final AtomicLong generation = new AtomicLong();
    /** The generation of the watch that runs, or 0: a watch ended by the server is not this. */
    private final AtomicLong running = new AtomicLong();
    private final OncePerKey reported = new OncePerKey();
    /** By uid: whether the scheduler found no room for it. */
    private volatile Map<String, Boolean> unbound = Map.of();

    UnboundPodsWatch(KubernetesClient client) {
        this.client = client;
    }

    /** The signature of these unbound pods: their uids, marked where the scheduler found no room. */
    static String signatureOf(Map<String, Boolean> unbound) {
        List<String> waiting = new ArrayList<>();
        unbound.forEach((uid, unschedulable) -> waiting.add(uid + (unschedulable ? ":u" : "")));
        waiting.sort(null);
        return Integer.toHexString(waiting.hashCode()) + "/" + waiting.size();
    }

    static Map<String, Boolean> projection(List<Pod> pods) {
        Map<String, Boolean> unbound = new ConcurrentHashMap<>();
        for (Pod pod : pods) {
            if (PodKinds.nodeName(pod) == null && !PodKinds.ended(pod)) {
                unbound.put(pod.getMetadata().getUid(), PodKinds.unschedulable(pod));
            }
        }
        return unbound;
    }

    /**
     * After a full read: watches from where it listed the pods, unless a watch runs already.
     *
     * @param pods the pods the read listed
     */
    void follow(String resourceVersion, List<Pod> pods) {
        if (running.get() != 0 || resourceVersion == null) {
            return;
        }
        Map<String, Boolean> seen = projection(pods);
        unbound = seen;
        long mine = generation.incrementAndGet();
        // Running before the call: the server may end it (410) before the call returns.
        running.set(mine);
        try {
            client.pods().inAnyNamespace().withField("spec.nodeName", "").watch(new ListOptionsBuilder()
                    .withResourceVersion(resourceVersion).withAllowWatchBookmarks(true).build(), new Watcher<Pod>() {
                        @Override
                        public void eventReceived(Action action, Pod pod) {
                            String uid = pod.getMetadata() == null ? null : pod.getMetadata().getUid();
                            if (uid == null || action == Action.BOOKMARK || action == Action.ERROR) {
                                return;
                            }
                            if (action == Action.DELETED || PodKinds.nodeName(pod) != null || PodKinds.ended(pod)) {
                                seen.remove(uid);
                            } else {
                                seen.put(uid, PodKinds.unschedulable(pod));
                            }
                        }

                        @Override
                        public void onClose(WatcherException cause) {
                            if (running.compareAndSet(mine, 0)) {
                                log.info("the watch of the pods no node holds ended: {}; the quick check lists them "
                                        + "until the next full read watches again", cause.isHttpGone()
                                        ? "its resourceVersion is too old (410 Gone)" : cause.getMessage());
                            }
                        }
                    });
            reported.endRound();
        } catch (KubernetesClientException e) {
            running.compareAndSet(mine, 0);
            if (reported.first("watch")) {
                log.info("cannot watch the pods no node holds ({}); the quick check lists them instead",
                        e.getMessage());
            }
        }
    }

    /** The signature while the watch runs; empty before it started or once the server ended it. */
    Optional<String> signature() {
        return running.get() != 0 ? Optional.of(signatureOf(unbound)) : Optional.empty();
    }
}
