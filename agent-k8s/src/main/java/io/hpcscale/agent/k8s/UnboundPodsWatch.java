package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's quick check between full reads, as a watch of the pods no node holds, started where the last full
 * read listed them: a pod queued, placed, changed or gone is an event, and the count of events is the signature,
 * at no cost while nothing happens. The list's resourceVersion itself is no such signal: it is the cluster's
 * revision, which every kubelet's lease renewal moves. When the watch ends (the API server's 410 Gone once the
 * resourceVersion is compacted away, a restart, a lost connection), fabric8 does not resume it: the signature is
 * then "stale" and differs from the last, the agent reads in full, and that read starts a new watch.
 */
final class UnboundPodsWatch {
    private static final Logger log = LoggerFactory.getLogger(UnboundPodsWatch.class);

    private final KubernetesClient client;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong generation = new AtomicLong();
    private volatile boolean open;

    UnboundPodsWatch(KubernetesClient client) {
        this.client = client;
    }

    /**
     * After a full read: watches from where it listed the pods, unless a watch runs already.
     *
     * @param listed the {@code uid:resourceVersion} of each unbound pod the read saw: a server that replays them as
     *               added when the watch starts (fabric8's mock does) tells nothing new
     */
    void follow(String resourceVersion, Set<String> listed) {
        if (open || resourceVersion == null) {
            return;
        }
        long mine = generation.incrementAndGet();
        try {
            client.pods().inAnyNamespace().withField("spec.nodeName", "").watch(new ListOptionsBuilder()
                    .withResourceVersion(resourceVersion).withAllowWatchBookmarks(true).build(), new Watcher<Pod>() {
                        @Override
                        public void eventReceived(Action action, Pod pod) {
                            boolean replayed = action == Action.ADDED && listed.contains(pod.getMetadata().getUid()
                                    + ":" + pod.getMetadata().getResourceVersion());
                            if (action != Action.BOOKMARK && !replayed) {
                                events.incrementAndGet();
                            }
                        }

                        @Override
                        public void onClose(WatcherException cause) {
                            closed(mine, cause.isHttpGone() ? "its resourceVersion is too old (410 Gone)"
                                    : cause.getMessage());
                        }
                    });
            open = true;
        } catch (KubernetesClientException e) {
            log.info("cannot watch the pods no node holds ({}); the quick check lists them instead", e.getMessage());
        }
    }

    private void closed(long which, String why) {
        if (which == generation.get()) {
            open = false;
            log.info("the watch of the pods no node holds ended: {}; the next quick check asks for a full read, "
                    + "which watches again", why);
        }
    }

    /** The count of events, while the watch runs; empty once it ended, or before it started. */
    Optional<String> signature() {
        return open ? Optional.of("watch:" + generation.get() + ":" + events.get()) : Optional.empty();
    }
}
