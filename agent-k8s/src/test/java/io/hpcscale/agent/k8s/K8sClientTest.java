package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.config.ConfigException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's way to the API server: a kubeconfig file, and what it says when the way is wrong or closed. */
class K8sClientTest {
    @TempDir
    Path dir;

    @Test
    void theAgentReadsTheClusterTheKubeconfigNames() throws Exception {
        try (MockCluster cluster = MockCluster.start(false)) {
            cluster.node("vm1", "cpu", 16, "64Gi");
            K8sSettings settings = K8sTestSettings.of(Map.of("agent.k8s.kubeconfig",
                    cluster.kubeconfig(dir).toString()));
            try (KubernetesClient client = K8sClients.open(settings)) {
                assertEquals(1, new K8sAdapter(client, settings, Clock.systemUTC()).read().nodes().size());
            }
        }
    }

    @Test
    void aKubeconfigThatCannotBeReadIsAConfigurationErrorNamingTheKey() {
        K8sSettings settings = K8sTestSettings.of(Map.of("agent.k8s.kubeconfig", dir.resolve("none").toString()));
        ConfigException e = assertThrows(ConfigException.class, () -> K8sClients.open(settings));
        assertTrue(e.getMessage().contains("agent.k8s.kubeconfig"), e.getMessage());
    }

    @Test
    void aKubeconfigThatIsNotOneIsRefusedNamingTheKeyAndNeverItsToken() throws Exception {
        String token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6aHBjc2NhbGUifQ.c2lnbmF0dXJl";
        Path broken = dir.resolve("broken");
        Files.writeString(broken, "users:\n- name: agent\n  user:\n    token: " + token + "\n   : [unclosed\n");
        K8sSettings settings = K8sTestSettings.of(Map.of("agent.k8s.kubeconfig", broken.toString()));
        ConfigException e = assertThrows(ConfigException.class, () -> K8sClients.open(settings));
        assertTrue(e.getMessage().contains("agent.k8s.kubeconfig"), e.getMessage());
        assertFalse(e.getMessage().contains(token), e.getMessage());
    }

    @Test
    void withoutAKubeconfigOutsideAPodTheSettingToGiveIsNamed() {
        K8sSettings settings = K8sTestSettings.of(Map.of());
        ConfigException e = assertThrows(ConfigException.class, () -> K8sClients.open(settings, Map.of(), dir));
        assertTrue(e.getMessage().startsWith("agent.k8s.kubeconfig is not set"), e.getMessage());
    }

    @Test
    void anApiServerThatDoesNotAnswerFailsTheReadSayingWhatCouldNotBeRead() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path kubeconfig = MockCluster.kubeconfig(dir, "http://127.0.0.1:" + closedPort + "/");
        K8sSettings settings = K8sTestSettings.of(Map.of("agent.k8s.kubeconfig", kubeconfig.toString(),
                "agent.k8s.requestTimeout", "2s"));
        try (KubernetesClient client = K8sClients.open(settings)) {
            SchedulerReadException e = assertThrows(SchedulerReadException.class,
                    () -> new K8sAdapter(client, settings, Clock.systemUTC()).read());
            assertTrue(e.getMessage().startsWith("cannot list nodes from the API server"), e.getMessage());
        }
    }
}
