package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.store.StoreCheck;
import io.hpcscale.scaler.check.Finding;
import io.hpcscale.scaler.check.PoolCheck;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.plan.Words;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Checks the configuration against the cloud and the store before the scaler is trusted with it: per pool, numbered
 * findings, each ok or a problem saying what to change. It only reads (a permissions probe stands in for trying the
 * actions), needs no lease and is safe while the service runs. Exits 1 if any problem was found.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "check",
        description = "Check each pool against its cloud and the store: sign-in, scale set, VM size, permissions, "
                + "instances and the nodes the agent reports.")
final class CheckCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        List<PoolCheck> checks;
        Settings settings = root.loadSettings();
        List<StoreCheck.Finding> store = StoreCheck.run(settings, Clock.systemUTC());
        try (ConfigurationCheck check = ConfigurationCheck.from(settings, Clock.systemUTC(), CloudProviders.installedModules())) {
            checks = check.run();
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf("store (%s)%n", settings.string("store.type"));
        int number = 0;
        for (StoreCheck.Finding finding : store) {
            out.printf("  %d. %-7s %s%n", ++number, finding.ok() ? "ok" : "problem", finding.sentence());
        }
        checks.forEach(pool -> print(pool, out));
        long storeProblems = store.stream().filter(finding -> !finding.ok()).count();
        long problems = checks.stream().mapToLong(PoolCheck::problems).sum();
        List<String> where = new ArrayList<>();
        if (storeProblems > 0) {
            where.add("the store");
        }
        checks.stream().filter(pool -> pool.problems() > 0).forEach(pool -> where.add("pool " + pool.pool()));
        out.println(problems + storeProblems == 0 ? "everything checked is ok"
                : Words.count((int) (problems + storeProblems), "problem") + " in " + String.join(", ", where));
        out.flush();
        return problems + storeProblems == 0 ? 0 : Cli.FAILURE;
    }

    private static void print(PoolCheck pool, PrintWriter out) {
        out.printf("pool %s (%s)%n", pool.pool(), pool.provider());
        int number = 0;
        for (Finding finding : pool.findings()) {
            out.printf("  %d. %-7s %s%n", ++number, finding.ok() ? "ok" : "problem", finding.sentence());
            finding.details().forEach(detail -> out.printf("             - %s%n", detail));
        }
    }
}
