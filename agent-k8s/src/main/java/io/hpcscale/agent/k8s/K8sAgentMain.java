package io.hpcscale.agent.k8s;

import io.hpcscale.common.agent.cli.AgentCli;
import io.hpcscale.common.agent.cli.AgentDefinition;
import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.config.Program;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandRunner;
import java.time.Clock;

/** {@code hpcscale-agent-k8s}: the agent for Kubernetes clusters whose nodes are scale set instances. */
public final class K8sAgentMain {
    public static final Program PROGRAM = new Program("hpcscale-agent-k8s", "The hpcscale agent for Kubernetes: every "
            + "agent.interval it reads the nodes of each pool (by their pool label), the pods the scheduler could not "
            + "place, Volcano gangs and Kueue workloads, writes what changed to the ClusterLoad store, and drains "
            + "nodes by cordoning and tainting them.");

    private K8sAgentMain() {
    }

    public static AgentDefinition definition() {
        return new AgentDefinition(PROGRAM, K8sSettings.QUEUE_PROPERTY, K8sAgentMain::adapter);
    }

    /** The API server is the scheduler here: no command is run, so the runner goes unused. */
    static K8sAdapter adapter(Settings settings, CommandRunner unused) {
        K8sSettings k8s = K8sSettings.from(settings);
        return new K8sAdapter(K8sClients.open(k8s), k8s, Clock.systemUTC());
    }

    public static void main(String[] args) {
        System.exit(Cli.execute(AgentCli.commandLine(definition()), args));
    }
}
