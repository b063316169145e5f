package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.cli.ScalerMain;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * A PBS cluster as an administrator runs hpcscale on it: the stand-in server ({@link StandInPbsServer}) behind stand-in
 * {@code qstat} and {@code pbsnodes}, the real agent as its own process ({@code hpcscale-agent-pbs once}), the real
 * scaler's command line ({@code hpcscale-scaler once}) starting and stopping the server's nodes through the command
 * provider, and one SQLite store.
 */
final class PbsCluster implements AutoCloseable {
    static final String POOL = "workq";

    private final Path dir;
    private final StandInPbs pbs;
    private final StandInPbsServer server;
    private final Path config;
    private final SqliteClusterLoadStore store;

    /**
     * @param nodes  the server's hosts, all in queue {@code workq}
     * @param extra  settings added to the shared configuration
     */
    PbsCluster(Path dir, List<StandInPbsServer.NodeSpec> nodes, String extra) throws IOException {
        this.dir = dir;
        this.pbs = new StandInPbs(dir.resolve("pbs"));
        this.server = new StandInPbsServer(pbs, dir.resolve("cloud/vms"), nodes);
        Map<String, Path> power = server.powerCommands();
        StandInPbsServer.NodeSpec shape = nodes.get(0);
        this.config = dir.resolve("hpcscale.properties");
        Files.writeString(config, """
                store.sqlite.path = %s
                agent.host = head
                agent.commandTimeout = 10s
                pool.workq.queue = workq
                pool.workq.provider = command
                pool.workq.cpus = %d
                pool.workq.memoryMb = %d
                pool.workq.max = %d
                pool.workq.idleTimeout = 0s
                pool.workq.command.list = %s
                pool.workq.command.start = %s {node}
                pool.workq.command.stop = %s {node}
                %s
                """.formatted(dir.resolve("clusterload.db"), shape.ncpus(), shape.memKb() / 1024, nodes.size(),
                power.get("list"), power.get("start"), power.get("stop"), extra));
        this.store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"), Duration.ofSeconds(10),
                Clock.systemUTC());
    }

    StandInPbs pbs() {
        return pbs;
    }

    StandInPbsServer server() {
        return server;
    }

    Path config() {
        return config;
    }

    /** {@code hpcscale-agent-pbs once}, which must succeed; what it printed. */
    String agentOnce() throws Exception {
        AgentProcess.Result result = AgentProcess.run(pbs.directory(), "once", "--config", config.toString());
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        return result.stdout();
    }

    /** {@code hpcscale-agent-pbs} with these arguments, as the user {@code user} (null: as this process). */
    AgentProcess.Result agent(String user, String... args) throws Exception {
        return AgentProcess.run(pbs.directory(), user == null ? Map.of() : Map.of(StandInPbs.USER_VARIABLE, user),
                args);
    }

    /** {@code hpcscale-scaler} with these arguments and the cluster's configuration; what it printed. */
    String scaler(String... args) {
        CommandLine commandLine = ScalerMain.commandLine();
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(out));
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--config";
        all[args.length + 1] = config.toString();
        int code = commandLine.execute(all);
        assertEquals(0, code, out.toString());
        return out.toString();
    }

    /**
     * One round as the services would run it: the server's turn, an agent cycle, a scaler cycle, the server's turn
     * again (a started VM's mom reports, a stopped one's jobs are lost).
     */
    String round() throws Exception {
        server.tick();
        String agent = agentOnce();
        String scaler = scaler("once");
        server.tick();
        return agent + scaler;
    }

    Optional<VmDocument> vm(String node) {
        return new DocumentStore(store).read(new DocumentKey(POOL, node), VmDocument.class)
                .map(DocumentStore.Versioned::document);
    }

    /** How many times the power log shows this action on this node. */
    long powered(String action, String node) throws IOException {
        return server.powerLog().stream().filter(e -> e[1].equals(action) && e[2].equals(node)).count();
    }

    long pbsnodesCalls(String option, String node) throws IOException {
        return pbs.calls().stream().filter(c -> c.startsWith("pbsnodes " + option) && c.endsWith(" " + node))
                .count();
    }

    @Override
    public void close() {
        store.close();
    }
}
