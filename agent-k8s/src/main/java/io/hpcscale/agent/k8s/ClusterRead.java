package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.hpcscale.common.agent.SchedulerReadException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One read of what the agent needs from the API server, each kind listed in pages as {@code kubectl} lists them:
 * nodes, pods that have not ended, and where they are served and wanted, Volcano's PodGroups and Kueue's Workloads
 * and LocalQueues. A kind that cannot be listed fails the read as a whole, saying which and why.
 */
final class ClusterRead {
    static final ResourceDefinitionContext POD_GROUPS = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh").withVersion("v1beta1").withKind("PodGroup").withPlural("podgroups")
            .withNamespaced(true).build();
    private static final String KUEUE = "kueue.x-k8s.io";
    /** The newest first: the fields read are the same in both. */
    private static final List<String> KUEUE_VERSIONS = List.of("v1beta2", "v1beta1");

    /**
     * What one read found.
     *
     * @param podsVersion the resourceVersion the pods were listed at: where a watch of their changes starts
     */
    record Found(List<Node> nodes, List<Pod> pods, String podsVersion, List<GenericKubernetesResource> podGroups,
            List<GenericKubernetesResource> workloads, List<GenericKubernetesResource> localQueues) {
    }

    private final KubernetesClient client;
    private final K8sSettings settings;

    ClusterRead(KubernetesClient client, K8sSettings settings) {
        this.client = client;
        this.settings = settings;
    }

    Found read() throws SchedulerReadException {
        List<Node> nodes = paged("nodes", options -> {
            NodeList page = client.nodes().list(options);
            return new Page<>(page.getItems(), page.getMetadata());
        }).items();
        // The phase selector narrows what the API server sends; what it cannot filter is filtered again here.
        Listed<Pod> listed = paged("pods", options -> {
            PodList page = client.pods().inAnyNamespace().withoutField("status.phase", "Succeeded")
                    .withoutField("status.phase", "Failed").list(options);
            return new Page<>(page.getItems(), page.getMetadata());
        });
        List<Pod> pods = listed.items().stream().filter(pod -> !PodKinds.ended(pod)).toList();
        List<GenericKubernetesResource> podGroups = List.of();
        if (served(settings.volcano(), "Volcano PodGroups", "agent.k8s.volcano", POD_GROUPS.getGroup() + "/"
                + POD_GROUPS.getVersion())) {
            podGroups = generic("Volcano PodGroups", POD_GROUPS);
        }
        List<GenericKubernetesResource> workloads = List.of();
        List<GenericKubernetesResource> localQueues = List.of();
        String kueue = kueueVersion();
        if (kueue != null) {
            workloads = generic("Kueue Workloads", kueue(kueue, "Workload", "workloads"));
            localQueues = generic("Kueue LocalQueues", kueue(kueue, "LocalQueue", "localqueues"));
        }
        return new Found(nodes, pods, listed.resourceVersion(), podGroups, workloads, localQueues);
    }

    private String kueueVersion() throws SchedulerReadException {
        if (settings.kueue() == K8sSettings.Source.OFF) {
            return null;
        }
        for (String version : KUEUE_VERSIONS) {
            if (served(K8sSettings.Source.AUTO, "Kueue", "agent.k8s.kueue", KUEUE + "/" + version)) {
                return version;
            }
        }
        if (settings.kueue() == K8sSettings.Source.ON) {
            throw new SchedulerReadException("the API server serves no Kueue API (" + KUEUE + " " + KUEUE_VERSIONS
                    + "), and agent.k8s.kueue = on: install Kueue, or set agent.k8s.kueue = auto or off");
        }
        return null;
    }

    static ResourceDefinitionContext kueue(String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(KUEUE).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }

    /** Whether the API server serves this group and version; with {@code on}, that it must. */
    private boolean served(K8sSettings.Source source, String what, String key, String groupVersion)
            throws SchedulerReadException {
        if (source == K8sSettings.Source.OFF) {
            return false;
        }
        boolean served;
        try {
            served = client.getApiResources(groupVersion) != null;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw failure("find out whether the API server serves " + groupVersion, e);
            }
            served = false;
        }
        if (!served && source == K8sSettings.Source.ON) {
            throw new SchedulerReadException("the API server does not serve " + what + " (" + groupVersion + "), and "
                    + key + " = on: install it, or set " + key + " = auto or off");
        }
        return served;
    }

    private List<GenericKubernetesResource> generic(String what, ResourceDefinitionContext kind)
            throws SchedulerReadException {
        return paged(what, options -> {
            GenericKubernetesResourceList page = client.genericKubernetesResources(kind).inAnyNamespace()
                    .list(options);
            return new Page<>(page.getItems(), page.getMetadata());
        }).items();
    }

    private record Page<T>(List<T> items, ListMeta meta) {
    }

    /** A whole list, and the resourceVersion it was read at (that of its first page: the pages are one snapshot). */
    private record Listed<T>(List<T> items, String resourceVersion) {
    }

    /**
     * Lists in pages of {@code agent.k8s.pageSize}, following the continue token; a token that expired in between
     * (410) starts the list again, once.
     */
    private <T> Listed<T> paged(String what, Function<ListOptions, Page<T>> list) throws SchedulerReadException {
        for (int attempt = 1; ; attempt++) {
            List<T> items = new ArrayList<>();
            String next = null;
            String version = null;
            try {
                do {
                    Page<T> page = list.apply(new ListOptionsBuilder().withLimit((long) settings.pageSize())
                            .withContinue(next).build());
                    items.addAll(page.items());
                    next = page.meta() == null ? null : page.meta().getContinue();
                    if (version == null && page.meta() != null) {
                        version = page.meta().getResourceVersion();
                    }
                } while (next != null && !next.isEmpty());
                return new Listed<>(items, version);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 410 || attempt == 2) {
                    throw failure("list " + what, e);
                }
            }
        }
    }

    /** Says what could not be done and, for a refusal, which right the agent's account lacks. */
    static SchedulerReadException failure(String action, KubernetesClientException e) {
        String why = e.getCode() == 403 ? "the agent's account may not (HTTP 403): grant it the rules of "
                + "docs/k8s-rbac.yaml" : e.getCode() > 0 ? "HTTP " + e.getCode() + ": " + e.getMessage()
                : e.getMessage();
        return new SchedulerReadException("cannot " + action + " from the API server: " + why, e);
    }
}
