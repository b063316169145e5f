package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's Kubernetes mock server in CRUD mode, started once per test class: it stores what is created and answers
 * lists, gets, JSON Patches (with the resourceVersion precondition) and watches as an API server does. What it does
 * not do (paging, field selectors beyond name and namespace, defaulting, status subresources of custom resources)
 * the adapter must not rely on: it filters again what a selector narrowed, and the fixtures set what a real API
 * server would default. An administrator's client makes the fixtures; the adapter reads through a kubeconfig file.
 */
public final class MockCluster implements AutoCloseable {
    public static final String POOL_LABEL = "hpcscale.io/pool";
    public static final ResourceDefinitionContext POD_GROUPS = ClusterRead.POD_GROUPS;
    public static final ResourceDefinitionContext WORKLOADS = ClusterRead.kueue("v1beta2", "Workload", "workloads");
    public static final ResourceDefinitionContext LOCAL_QUEUES = ClusterRead.kueue("v1beta2", "LocalQueue",
            "localqueues");

    private final KubernetesMockServer server;
    public final KubernetesClient admin;

    private MockCluster(KubernetesMockServer server) {
        this.server = server;
        this.admin = server.createClient(new JdkHttpClientFactory());
    }

    /**
     * With Volcano and Kueue served where {@code withBatchApis}: their kinds as their published CRDs name them
     * (volcano-sh/volcano config/crd/volcano/bases/scheduling.volcano.sh_podgroups.yaml: scheduling.volcano.sh
     * v1beta1 PodGroup, podgroups, Namespaced; kubernetes-sigs/kueue config/components/crd/bases/
     * kueue.x-k8s.io_workloads.yaml and _localqueues.yaml: kueue.x-k8s.io v1beta2, Namespaced). The mock serves
     * their discovery and stores them; it validates nothing against the CRDs' schemas, as it validates no kind.
     */
    public static MockCluster start(boolean withBatchApis) {
        List<CustomResourceDefinitionContext> kinds = new ArrayList<>();
        if (withBatchApis) {
            for (ResourceDefinitionContext kind : List.of(ClusterRead.POD_GROUPS, WORKLOADS, LOCAL_QUEUES)) {
                kinds.add(new CustomResourceDefinitionContext.Builder().withGroup(kind.getGroup())
                        .withVersion(kind.getVersion()).withKind(kind.getKind()).withPlural(kind.getPlural())
                        .withScope("Namespaced").build());
            }
        }
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        MockWebServer web = new MockWebServer();
        // Plain HTTP/1.1, as the JDK client then speaks it without trying an upgrade.
        web.setHttp2ClearTextEnabled(false);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), web, expectations,
                new KubernetesMixedDispatcher(expectations, kinds), false);
        server.init();
        return new MockCluster(server);
    }

    /** A kubeconfig naming this server, as an administrator hands one to the agent. */
    public Path kubeconfig(Path dir) throws IOException {
        return kubeconfig(dir, server.url("/"));
    }

    /** A kubeconfig naming the API server at {@code url}, with a token as a service account's. */
    public static Path kubeconfig(Path dir, String url) throws IOException {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                users:
                - name: agent
                  user:
                    token: agent-token
                contexts:
                - name: mock
                  context:
                    cluster: mock
                    user: agent
                current-context: mock
                """.formatted(url));
        return file;
    }

    /** The paths of every request made since the server started, in order. */
    public List<String> paths() throws InterruptedException {
        List<String> paths = new ArrayList<>();
        for (RecordedRequest request = server.takeRequest(0, TimeUnit.SECONDS); request != null;
                request = server.takeRequest(0, TimeUnit.SECONDS)) {
            paths.add(request.getPath());
        }
        return paths;
    }

    /** The next watch on {@code path} ends as an API server ends one whose resourceVersion is compacted away. */
    public void goneOnWatch(String path) {
        server.expect().get().withPath(path).andUpgradeToWebSocket().open().waitFor(100)
                .andEmit(new WatchEvent(new StatusBuilder().withCode(410).withReason("Expired")
                        .withMessage("too old resource version").build(), "ERROR")).done().once();
    }

    /** The next PATCH of {@code path} is refused with this status, as the API server refuses one. */
    public void refusePatchOnce(String path, int code, String reason) {
        server.expect().patch().withPath(path).andReturn(code, new StatusBuilder().withCode(code).withReason(reason)
                .withMessage(reason).build()).once();
    }

    /** The next GET of {@code path} (path and query, as sent) is refused with this status. */
    public void refuseGetOnce(String path, int code, String reason) {
        server.expect().get().withPath(path).andReturn(code, new StatusBuilder().withCode(code).withReason(reason)
                .withMessage(reason).build()).once();
    }

    /** The next GET of {@code path} answers with this body. */
    public void answerOnce(String path, Object body) {
        server.expect().get().withPath(path).andReturn(200, body).once();
    }

    public int requests() {
        return server.getRequestCount();
    }

    /** Deletes what a test made, keeping the server (and its registered kinds) for the next. */
    public void clear() {
        admin.pods().inAnyNamespace().delete();
        admin.nodes().delete();
        for (ResourceDefinitionContext kind : List.of(ClusterRead.POD_GROUPS, WORKLOADS, LOCAL_QUEUES)) {
            admin.genericKubernetesResources(kind).inAnyNamespace().delete();
        }
    }

    @Override
    public void close() {
        admin.close();
        server.destroy();
    }

    /** A Ready node of the pool with this label value (none when null), offering this much. */
    public Node node(String name, String pool, int cpus, String memory) {
        NodeBuilder node = new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                .withAllocatable(Map.of("cpu", new Quantity(Integer.toString(cpus)), "memory", new Quantity(memory),
                        "pods", new Quantity("110")))
                .endStatus();
        if (pool != null) {
            node.editMetadata().withLabels(Map.of(POOL_LABEL, pool)).endMetadata();
        }
        return admin.nodes().resource(node.build()).create();
    }

    /** A pod of one container requesting this much, bound to {@code node} and running, or pending when null. */
    public PodBuilder pod(String namespace, String name, String cpu, String memory) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .withCreationTimestamp("2026-11-27T05:00:00Z").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
                .endResources().endContainer().endSpec();
    }

    public Pod running(PodBuilder pod, String node) {
        return admin.resource(pod.editSpec().withNodeName(node).endSpec().withNewStatus().withPhase("Running")
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition().endStatus().build())
                .create();
    }

    /** A pod the scheduler tried and could not place. */
    public Pod unschedulable(PodBuilder pod) {
        return admin.resource(pod.withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled")
                .withStatus("False").withReason("Unschedulable").withMessage("0/3 nodes are available: 3 Insufficient "
                        + "cpu.").endCondition().endStatus().build()).create();
    }

    public GenericKubernetesResource create(ResourceDefinitionContext kind, String namespace, String name,
            Map<String, Object> spec, Map<String, Object> status) {
        GenericKubernetesResource resource = new GenericKubernetesResourceBuilder()
                .withApiVersion(kind.getGroup() + "/" + kind.getVersion()).withKind(kind.getKind())
                .withNewMetadata().withNamespace(namespace).withName(name)
                .withCreationTimestamp("2026-11-27T05:00:00Z").endMetadata().build();
        resource.setAdditionalProperty("spec", spec);
        if (status != null) {
            resource.setAdditionalProperty("status", status);
        }
        return admin.genericKubernetesResources(kind).inNamespace(namespace).resource(resource).create();
    }

    public static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
