package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.scaler.check.Finding;
import io.hpcscale.scaler.check.PoolCheck;
import io.hpcscale.scaler.plan.Words;
import java.io.PrintWriter;
import java.time.Clock;
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
        try (ConfigurationCheck check = ConfigurationCheck.from(root.loadSettings(), Clock.systemUTC())) {
            checks = check.run();
        }
        PrintWriter out = spec.commandLine().getOut();
        checks.forEach(pool -> print(pool, out));
        long problems = checks.stream().mapToLong(PoolCheck::problems).sum();
        List<String> pools = checks.stream().filter(pool -> pool.problems() > 0).map(PoolCheck::pool).toList();
        out.println(problems == 0 ? "everything checked is ok"
                : Words.count((int) problems, "problem") + " in pool" + (pools.size() == 1 ? " " : "s ")
                        + String.join(", ", pools));
        out.flush();
        return problems == 0 ? 0 : Cli.FAILURE;
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
