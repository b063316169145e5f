package io.hpcscale.agent.slurm;

import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code resume} and {@code suspend}: Slurm's ResumeProgram and SuspendProgram. They only record, for each node of the
 * hostlist, a power request for the scaler to carry out with its quota, backoff and provider; they start and stop
 * nothing themselves. A node no pool serves is reported on stderr and makes the exit status 1.
 */
@picocli.CommandLine.Command(sortOptions = false, mixinStandardHelpOptions = true,
        versionProvider = io.hpcscale.common.cli.Version.class)
final class PowerRequestCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "HOSTLIST", description = "The nodes, as Slurm passes them: cnode[1-4],gpu7")
    private String hostlist;

    private final PowerDocument.Action action;

    PowerRequestCommand(PowerDocument.Action action) {
        this.action = action;
    }

    @Override
    public Integer call() throws InterruptedException {
        Settings settings = root.loadSettings();
        List<String> nodes = Hostlists.expand(hostlist);
        PoolMap pools = PoolMap.fromSettings(settings, "partition");
        Map<String, List<String>> partitions;
        try {
            partitions = SlurmAgentMain.adapter(settings, new ZtExecCommandRunner()).partitionsOfNodes();
        } catch (SchedulerReadException e) {
            spec.commandLine().getErr().println(spec.commandLine().getCommandName() + ": cannot map " + hostlist
                    + " to pools: " + e.getMessage());
            return 1;
        }
        Clock clock = Clock.systemUTC();
        List<PowerDocument> requests = new ArrayList<>();
        List<String> unmapped = new ArrayList<>();
        for (String node : nodes) {
            Optional<String> pool = pools.poolForNode(node, partitions.getOrDefault(node, List.of()));
            if (pool.isPresent()) {
                requests.add(PowerDocument.request(pool.get(), node, action, clock.instant()));
            } else {
                unmapped.add(node);
            }
        }
        try (ClusterLoadStore store = StoreFactory.open(settings, clock)) {
            new DocumentStore(store).upsert(requests);
        }
        PrintWriter out = spec.commandLine().getOut();
        requests.forEach(r -> out.println(action + " requested for " + r.name() + " in pool " + r.poolName()));
        out.flush();
        if (!unmapped.isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(spec.commandLine().getCommandName() + ": no pool serves " + String.join(",", unmapped)
                    + " (check pool.<name>.partition and nodePattern); Slurm's request for them is not carried out");
            err.flush();
            return 1;
        }
        return 0;
    }
}
