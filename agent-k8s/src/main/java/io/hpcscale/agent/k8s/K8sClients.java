package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.secrets.Redactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Opens the client of the cluster the settings name: a kubeconfig file, or the pod's own service account. */
final class K8sClients {
    /**
     * fabric8 retries a failed request ten times by default, from 100 ms doubling: an API server that is down would
     * hold one read for minutes. Twice is enough to ride out a restart of one API server behind a load balancer.
     */
    private static final int RETRIES = 2;

    private K8sClients() {
    }

    /** The cluster the settings name, for this process's environment and home directory. */
    static KubernetesClient open(K8sSettings settings) {
        return open(settings, System.getenv(), Path.of(System.getProperty("user.home")));
    }

    static KubernetesClient open(K8sSettings settings, Map<String, String> environment, Path home) {
        if (settings.kubeconfig().isEmpty() && !environment.containsKey("KUBERNETES_SERVICE_HOST")
                && !environment.containsKey("KUBECONFIG") && !Files.isReadable(home.resolve(".kube/config"))) {
            // fabric8 would then try https://kubernetes.default.svc, which only a pod can reach.
            throw new ConfigException("agent.k8s.kubeconfig is not set, and this is neither a pod (no "
                    + "KUBERNETES_SERVICE_HOST) nor a user with a kubeconfig (no KUBECONFIG, no " + home
                    + "/.kube/config): set agent.k8s.kubeconfig to the cluster's kubeconfig file");
        }
        Config base;
        try {
            if (settings.kubeconfig().isPresent()) {
                Path file = settings.kubeconfig().get();
                if (!Files.isReadable(file)) {
                    throw new ConfigException("agent.k8s.kubeconfig names " + file + ", which this user cannot read: "
                            + "give the path of the cluster's kubeconfig file, or leave the key out in a pod");
                }
                base = Config.fromKubeconfig(settings.context().orElse(null), file.toFile());
            } else {
                base = Config.autoConfigure(settings.context().orElse(null));
            }
        } catch (RuntimeException e) {
            // A YAML parser quotes the line it stumbled on, which may be the token's: redacted before it is shown.
            throw new ConfigException("the cluster named by agent.k8s.kubeconfig / agent.k8s.context cannot be used: "
                    + Redactor.text(String.valueOf(e.getMessage())));
        }
        int timeout = (int) settings.requestTimeout().toMillis();
        Config config = new ConfigBuilder(base)
                .withRequestTimeout(timeout)
                .withConnectionTimeout(timeout)
                .withRequestRetryBackoffLimit(RETRIES)
                .build();
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }
}
