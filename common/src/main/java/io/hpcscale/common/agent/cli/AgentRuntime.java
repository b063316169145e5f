package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CheckedPools;
import io.hpcscale.common.agent.JobAdmission;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.QueueCheck;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.cli.Version;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.common.store.StoreUsage;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An agent wired from the settings: its store, its scheduler adapter and its pools. */
final class AgentRuntime implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AgentRuntime.class);

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
        Agent agent = new Agent(adapter, new DocumentStore(store), pools, host, Version.current(),
                JobAdmission.fromSettings(settings, new ZtExecCommandRunner()), CheckedPools.fromSettings(settings));
        warnOfUnknownQueues(adapter, pools, definition.queueProperty());
        return new AgentRuntime(store, agent, settings.duration("agent.interval"));
    }

    /** A pool naming a queue the scheduler lacks would wait for jobs forever: say so once, at start. */
    private static void warnOfUnknownQueues(SchedulerAdapter adapter, PoolMap pools, String word) {
        try {
            adapter.queueNames().ifPresent(existing -> QueueCheck.problems(pools, existing, word)
                    .forEach(problem -> log.warn("{}", problem)));
        } catch (SchedulerReadException e) {
            log.info("the pools' {}s were not checked against the scheduler's: {}", word, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
