package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent as an administrator runs it: {@code bin/hpcscale-agent-pbs once}, with the launcher's JVM options, over
 * stand-in qstat and pbsnodes that print 100,000 jobs and 10,000 nodes, into a SQLite file. It runs twice, the second
 * time on unchanged output, and GNU time measures each process.
 */
class AgentProcessBenchmark {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path TIME = Path.of("/usr/bin/time");

    @TempDir
    Path dir;

    /** What GNU time and the agent said about one run. */
    private record Run(int exitCode, long maxResidentKb, String elapsed, String stdout) {
        static Run of(int exitCode, String time, String stdout) {
            return new Run(exitCode, Long.parseLong(field(time, "Maximum resident set size \\(kbytes\\): (\\d+)")),
                    field(time, "Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): (\\S+)"), stdout);
        }

        private static String field(String text, String pattern) {
            Matcher m = Pattern.compile(pattern).matcher(text);
            assertTrue(m.find(), "GNU time printed no " + pattern + ":\n" + text);
            return m.group(1);
        }

        String summary() {
            return String.format("at most %.0f MB resident, %s s", maxResidentKb / 1024.0, elapsed);
        }
    }

    @Test
    void onceAtOneHundredThousandJobsRunTwice() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(TIME), "needs GNU time (Debian: apt-get install time)");
        Path standIns = Files.createDirectories(dir.resolve("bin"));
        Files.write(dir.resolve("jobs.json"), PbsOutputs.qstat(AgentBenchmark.JOBS, AgentBenchmark.QUEUES));
        Files.write(dir.resolve("nodes.json"), PbsOutputs.pbsnodes(AgentBenchmark.NODES, AgentBenchmark.QUEUES,
                AgentBenchmark.JOBS));
        Files.writeString(dir.resolve("queues.json"),
                "{\"timestamp\":1,\"pbs_version\":\"2022.1.7\",\"pbs_server\":\"pbsserver\",\"Queue\":{}}");
        executable(standIns.resolve("qstat"), "case \" $* \" in *\" -Q \"*) exec cat " + dir.resolve("queues.json")
                + " ;; esac\nexec cat " + dir.resolve("jobs.json"));
        executable(standIns.resolve("pbsnodes"), "exec cat " + dir.resolve("nodes.json"));
        List<String> config = new ArrayList<>(List.of("store.sqlite.path = " + dir.resolve("clusterload.db"),
                "agent.host = bench"));
        AgentBenchmark.poolSettings().forEach((key, value) -> config.add(key + " = " + value));
        Files.write(dir.resolve("hpcscale.properties"), config);

        Run first = once(standIns);
        Run second = once(standIns);
        assertEquals(0, first.exitCode(), first.stdout());
        assertEquals(0, second.exitCode(), second.stdout());
        assertTrue(first.stdout().contains((AgentBenchmark.JOBS + AgentBenchmark.NODES) + " documents written"),
                first.stdout());
        assertTrue(second.stdout().contains("0 documents written, 0 deleted"), second.stdout());
        Measure.report("machine: " + Measure.machine());
        Measure.report("agent process: bin/hpcscale-agent-pbs once at " + AgentBenchmark.JOBS + " jobs and "
                + AgentBenchmark.NODES + " nodes, JVM options of bin/launch: " + launcherOptions());
        Measure.report("agent process: first run (every document new, " + (AgentBenchmark.JOBS + AgentBenchmark.NODES)
                + " written): " + first.summary());
        Measure.report("agent process: second run (output unchanged, nothing written): " + second.summary()
                + " (goal: <= 300 MB)");
    }

    private Run once(Path standIns) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(TIME.toString(), "-v",
                ROOT.resolve("bin/hpcscale-agent-pbs").toString(), "once", "--config",
                dir.resolve("hpcscale.properties").toString())
                .redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("HPCSCALE_") || k.equals("JAVA_OPTS"));
        env.put("PATH", standIns + ":" + System.getenv("PATH"));
        int exit = builder.start().waitFor();
        return Run.of(exit, Files.readString(dir.resolve("stderr.txt")), Files.readString(dir.resolve("stdout.txt")));
    }

    /** The agents' default JVM options, as bin/launch sets them. */
    private static String launcherOptions() throws IOException {
        Matcher m = Pattern.compile("agent-\\*\\) defaults=\"([^\"]*)\"")
                .matcher(Files.readString(ROOT.resolve("bin/launch"), StandardCharsets.UTF_8));
        return m.find() ? m.group(1) : "(not found in bin/launch)";
    }

    private static void executable(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
