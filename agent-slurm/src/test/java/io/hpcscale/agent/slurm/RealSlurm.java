package io.hpcscale.agent.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A throw-away Slurm started by {@code scripts/slurm-test-cluster} for one test, and Slurm's own commands to drive
 * and check it. Needs root; {@link #available()} says why not when it is not.
 */
final class RealSlurm implements AutoCloseable {
    static final Path SCRIPT = Path.of("..", "scripts", "slurm-test-cluster").toAbsolutePath().normalize();

    private final Path dir;

    private RealSlurm(Path dir) {
        this.dir = dir;
    }

    /** Null when a real Slurm can be started here, else why not. */
    static String unavailableBecause() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "the real-Slurm tests need root (slurmctld and slurmd run as root); run scripts/test as root";
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/slurmctld"))) {
            return "Slurm is not installed; scripts/install-test-dependencies installs it (as root)";
        }
        return null;
    }

    /**
     * Skips the calling test, saying why, where a real Slurm cannot be started; else opens {@code dir} to every user,
     * since munged refuses a socket below a directory others cannot traverse and JUnit makes its directories 0700.
     */
    static void assumeAvailable(String test, Path dir) throws IOException {
        String because = unavailableBecause();
        if (because != null) {
            System.out.println("SKIPPED " + test + ": " + because);
        }
        Assumptions.assumeTrue(because == null, because);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    static RealSlurm start(Path dir, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "start", dir.toString()));
        command.addAll(List.of(options));
        exec(command, Map.of(), 60);
        return new RealSlurm(dir);
    }

    Path slurmConf() {
        return dir.resolve("slurm.conf");
    }

    /** The command provider's command for one node action: {@code slurm-test-cluster node-start DIR {node}}. */
    String nodeCommand(String action) {
        return SCRIPT + " node-" + action + " " + dir + (action.equals("list") ? "" : " {node}");
    }

    /** Submits with sbatch; returns the job id. */
    String sbatch(String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sbatch", "--parsable", "-o", "/dev/null"));
        command.addAll(List.of(options));
        return run(command, 30).strip().split(";")[0];
    }

    /** {@code scontrol ARGS}, as an administrator runs it; what it printed. */
    String scontrol(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("scontrol"));
        command.addAll(List.of(args));
        return run(command, 30);
    }

    /** Starts the node's slurmd, as if its VM had been running. */
    void nodeStart(String node) throws IOException, InterruptedException {
        exec(List.of(SCRIPT.toString(), "node-start", dir.toString(), node), Map.of(), 60);
    }

    /** slurmctld stopped and started again on its saved state. */
    void restartController() throws IOException, InterruptedException {
        exec(List.of(SCRIPT.toString(), "restart-controller", dir.toString()), Map.of(), 60);
    }

    /** {@code sinfo --json}'s entry of one node. */
    JsonNode node(String name) throws IOException, InterruptedException {
        for (JsonNode node : new ObjectMapper().readTree(run(List.of("sinfo", "--json"), 30)).path("nodes")) {
            if (node.path("name").asText().equals(name)) {
                return node;
            }
        }
        throw new IOException("sinfo lists no node " + name);
    }

    /** Cancels these jobs. */
    void scancel(List<String> jobIds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("scancel"));
        command.addAll(jobIds);
        run(command, 30);
    }

    /** Every job Slurm still knows (finished ones stay for MinJobAge), by display id. */
    Map<String, JsonNode> jobs() throws IOException, InterruptedException {
        JsonNode json = new ObjectMapper().readTree(run(List.of("squeue", "--json"), 30));
        Map<String, JsonNode> jobs = new HashMap<>();
        for (JsonNode job : json.path("jobs")) {
            String id = job.path("array_task_id").isNull() || job.path("array_task_id").isMissingNode()
                    ? job.path("job_id").asText() : job.path("array_job_id").asText() + "_"
                    + job.path("array_task_id").asText();
            jobs.put(id, job);
        }
        return jobs;
    }

    /** Nodes whose "VM" (slurmd) runs. */
    List<String> runningNodes() throws IOException, InterruptedException {
        List<String> running = new ArrayList<>();
        for (String line : run(List.of(SCRIPT.toString(), "node-list", dir.toString()), 30).split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (fields.length == 3 && fields[2].equals("running")) {
                running.add(fields[0]);
            }
        }
        return running;
    }

    /** Lines of the node start/stop log: "{epoch} start|stop {node}". */
    List<String[]> powerLog() throws IOException {
        Path log = dir.resolve("stops.log");
        List<String[]> entries = new ArrayList<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                entries.add(line.strip().split("\\s+"));
            }
        }
        return entries;
    }

    /** Stops of a node while Slurm still had a job on it: must stay empty. */
    List<String> violations() throws IOException {
        Path log = dir.resolve("violations.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    static Instant epoch(String seconds) {
        double value = Double.parseDouble(seconds);
        return Instant.ofEpochMilli((long) (value * 1000));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run(List.of(SCRIPT.toString(), "stop", dir.toString()), 60);
    }

    private String run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        return exec(command, Map.of("SLURM_CONF", slurmConf().toString()), timeoutSeconds);
    }

    private static String exec(List<String> command, Map<String, String> environment, int timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + text);
        }
        return text;
    }
}
