package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hpcscale.common.agent.SchedulerCommandException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells the users of a waiting pod, PodGroup or Workload why it gets no node, as an Event on it: what
 * {@code kubectl describe} lists under Events, beside the scheduler's {@code FailedScheduling}. kubectl finds an
 * object's events by its kind, name, namespace and uid, so the objects of the last read are kept to name them.
 * Events cannot be taken back; the API server forgets them after an hour ({@code --event-ttl}).
 */
final class WaitEvents {
    /** The Event's reason: one CamelCase word, as Kubernetes components name theirs. */
    static final String REASON = "HpcscaleWaiting";
    static final String COMPONENT = "hpcscale-agent";

    private final KubernetesClient client;
    private final Clock clock;
    private Map<String, ObjectReference> objects = Map.of();

    WaitEvents(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The objects behind the jobs of the last read, by job id. */
    void remember(Map<String, HasMetadata> byJob) {
        Map<String, ObjectReference> references = new HashMap<>();
        byJob.forEach((job, object) -> references.put(job, reference(object)));
        objects = references;
    }

    void post(String jobId, String reason) throws SchedulerCommandException {
        ObjectReference object = objects.get(jobId);
        if (object == null) {
            throw new SchedulerCommandException("job " + jobId + " was not in the last read: no event posted", null);
        }
        String now = Instant.now(clock).toString();
        Event event = new EventBuilder()
                .withNewMetadata().withGenerateName(object.getName() + ".").withNamespace(object.getNamespace())
                .endMetadata()
                .withInvolvedObject(object)
                .withReason(REASON).withMessage(reason).withType("Warning")
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent(COMPONENT).endSource()
                .build();
        try {
            client.v1().events().inNamespace(object.getNamespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            throw new SchedulerCommandException("posting an event on " + object.getKind() + " "
                    + object.getNamespace() + "/" + object.getName() + " failed (HTTP " + e.getCode() + "): "
                    + e.getMessage() + (e.getCode() == 403 ? "; the agent's ClusterRole needs create on events "
                            + "(docs/k8s-rbac.yaml)" : ""), e);
        }
    }

    /**
     * A reference to the object. The items of a typed list carry no kind or apiVersion, as the API server sends
     * them; a custom resource's do.
     */
    private static ObjectReference reference(HasMetadata object) {
        boolean pod = object instanceof Pod;
        return new ObjectReferenceBuilder()
                .withKind(object.getKind() == null && pod ? "Pod" : object.getKind())
                .withApiVersion(object.getApiVersion() == null && pod ? "v1" : object.getApiVersion())
                .withNamespace(object.getMetadata().getNamespace()).withName(object.getMetadata().getName())
                .withUid(object.getMetadata().getUid()).build();
    }
}
