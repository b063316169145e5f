package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.cli.Version;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.StoreUsage;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;

/** An agent wired from the settings: its store, its scheduler adapter and its pools. */
final class AgentRuntime implements AutoCloseable {
    private final ClusterLoadStore store;
    private final Agent agent;
    private final Duration interval;

    private AgentRuntime(ClusterLoadStore store, Agent agent, Duration interval) {
        this.store = store;
        this.agent = agent;
        this.interval = interval;
    }

    static AgentRuntime start(Settings settings, AgentDefinition definition, Clock clock) {
        PoolMap pools = PoolMap.fromSettings(settings, definition.queueProperty())
                .withMultiQueueRule(definition.multiQueueRule().apply(settings));
        SchedulerAdapter adapter = definition.adapterFactory().create(settings, new ZtExecCommandRunner());
        String host = settings.optionalString("agent.host").orElseGet(AgentRuntime::hostName);
        ClusterLoadStore store = StoreFactory.open(settings, clock);
        Agent agent = new Agent(adapter, new DocumentStore(store), pools, host, Version.current());
        return new AgentRuntime(store, agent, settings.duration("agent.interval"));
    }

    Agent agent() {
        return agent;
    }

    Duration interval() {
        return interval;
    }

    StoreUsage storeUsage() {
        return store.usage();
    }

    @Override
    public void close() {
        store.close();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null || fromEnvironment.isBlank() ? "localhost" : fromEnvironment;
        }
    }
}
