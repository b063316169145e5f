package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Sets how many instances a pool of {@code target = fixed} keeps: the resource group's tag for an azure pool (merged,
 * so the group's other tags stay), the store's target document otherwise. The running scaler acts on it at its next
 * cycle; lowering it never stops a node that runs a job.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class,
        name = "set-capacity", description = "Set how many instances a pool of target = fixed keeps.")
final class SetCapacityCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "POOL", description = "The pool, as named in pool.<name>.* settings.")
    private String poolName;

    @Parameters(index = "1", paramLabel = "N", description = "How many instances the pool keeps, 0 or more.")
    private int count;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Settings settings = root.loadSettings();
        Map<String, PoolConfig> pools = PoolConfigs.fromSettings(settings);
        PoolConfig pool = pools.get(poolName);
        String refusal = refusal(pool, pools);
        if (refusal != null) {
            err.println(refusal);
            err.flush();
            return Cli.FAILURE;
        }
        Clock clock = Clock.systemUTC();
        CloudProviders providers = new CloudProviders(settings, new ZtExecCommandRunner(), new SimulatedCloud(clock),
                new ActionGate());
        Optional<TargetSource> inCloud = providers.targetInCloud(poolName);
        try (ClusterLoadStore store = inCloud.isPresent() ? null : StoreFactory.open(settings, clock)) {
            TargetSource target = inCloud.orElseGet(() -> providers.targetForPool(poolName, new DocumentStore(store),
                    clock));
            OptionalInt before = readQuietly(target);
            target.write(count, "set-capacity on " + ThisHost.name());
            out.printf("pool %s: target %s -> %d (%s); the scaler acts on it at its next cycle%n", poolName,
                    before.isPresent() ? Integer.toString(before.getAsInt()) : "unset", count, target.describe());
            if (count < pool.min()) {
                out.printf("note: pool.%s.min is %d, so the scaler keeps %d running%n", poolName, pool.min(),
                        pool.min());
            }
            out.flush();
            return 0;
        } catch (TargetUnavailableException e) {
            err.println("cannot set the target of pool " + poolName + ": " + e.getMessage());
            err.flush();
            return Cli.FAILURE;
        }
    }

    private String refusal(PoolConfig pool, Map<String, PoolConfig> pools) {
        if (pool == null) {
            return "no pool " + poolName + " is configured; the pools are: " + String.join(", ", pools.keySet());
        }
        if (!pool.fixed()) {
            return "pool " + poolName + " has target = demand: its count follows the queued jobs. Set pool."
                    + poolName + ".target = fixed to give it a count";
        }
        if (count < 0) {
            return "N must be 0 or more, not " + count;
        }
        if (count > pool.max()) {
            return count + " is more than pool." + poolName + ".max = " + pool.max() + ", which the scaler would "
                    + "keep instead: raise max first";
        }
        return null;
    }

    /** The count before, for the message only: a failed read here is no reason not to set it. */
    private static OptionalInt readQuietly(TargetSource target) throws InterruptedException {
        try {
            return target.read();
        } catch (TargetUnavailableException e) {
            return OptionalInt.empty();
        }
    }
}
