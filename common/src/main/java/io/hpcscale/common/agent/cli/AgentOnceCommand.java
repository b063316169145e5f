package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.codec.DocumentCodec;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** One cycle, then a report of what it wrote; exits 1 if the cycle had a problem. */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "once", description = "Run one agent cycle and print what it wrote.")
final class AgentOnceCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "Print each written document as JSON instead of a summary line.")
    private boolean json;

    private final AgentDefinition definition;

    AgentOnceCommand(AgentDefinition definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() throws InterruptedException {
        Clock clock = Clock.systemUTC();
        CycleReport report;
        try (AgentRuntime runtime = AgentRuntime.start(root.loadSettings(), definition, clock)) {
            report = runtime.agent().runOnce(clock.instant());
        }
        print(report, spec.commandLine().getOut());
        return report.succeeded() && report.problems().isEmpty() ? 0 : 1;
    }

    private void print(CycleReport report, PrintWriter out) {
        DocumentCodec codec = new DocumentCodec();
        if (report.succeeded()) {
            out.printf("read %d jobs and %d nodes at %s%n", report.jobsRead(), report.nodesRead(), report.at());
        }
        for (ClusterLoadDocument document : report.written()) {
            out.println(json ? codec.encode(document).toString() : "wrote   " + summary(document));
        }
        for (DocumentKey key : report.deleted()) {
            out.println("deleted " + key);
        }
        report.takenOffline().forEach(node -> out.println("offline " + node + " (drain requested)"));
        report.broughtBack().forEach(node -> out.println("online  " + node + " (no longer drained)"));
        if (report.succeeded()) {
            out.printf("%d documents written, %d deleted, plus the heartbeat%n", report.written().size(),
                    report.deleted().size());
        } else {
            out.println("cycle failed: nothing was written or deleted but the heartbeat, which carries the error");
        }
        report.problems().forEach(problem -> out.println("problem: " + problem));
        out.flush();
    }

    private static String summary(ClusterLoadDocument document) {
        String head = document.type().wireName() + " " + document.key();
        if (document instanceof JobDocument job) {
            return head + " " + job.status() + ", " + job.nodes() + " node(s), " + job.totalCpus() + " cpus";
        }
        if (document instanceof VmDocument vm) {
            return head + " " + vm.jobStatus() + (vm.offline() ? ", offline" : "") + (vm.down() ? ", down" : "")
                    + ", " + vm.cpusUsed() + "/" + vm.cpusTotal() + " cpus used";
        }
        return head;
    }
}
