package io.hpcscale.common.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZtExecCommandRunnerTest {
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(10), "agent.commandTimeout",
            1 << 20, "agent.commandMaxOutput");
    private final ZtExecCommandRunner runner = new ZtExecCommandRunner();

    @TempDir
    Path dir;

    private static CommandLine command(CommandLimits limits, String... argv) {
        return new CommandLine(List.of(argv), limits, "agent.pbs.qstat");
    }

    private Path script(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    @Test
    void returnsWhatTheCommandPrinted() throws Exception {
        CommandResult result = runner.run(command(LIMITS, "sh", "-c", "printf '{\"a\":1}'; echo warn >&2"));
        assertEquals("{\"a\":1}", result.stdoutText());
        assertEquals("warn\n", result.stderr());
    }

    @Test
    void runsCommandsInTheCLocale() throws Exception {
        assertEquals("C\n", runner.run(command(LIMITS, "sh", "-c", "echo $LC_ALL")).stdoutText());
    }

    @Test
    void reportsExitStatusAndStderrOfAFailedCommand() {
        CommandFailedException e = assertThrows(CommandFailedException.class, () -> runner.run(
                command(LIMITS, "sh", "-c", "echo 'qstat: cannot connect to server pbs (errno=15010)' >&2; exit 2")));
        assertEquals(2, e.exitCode());
        assertTrue(e.getMessage().contains("exited with status 2: qstat: cannot connect to server pbs"),
                e.getMessage());
    }

    @Test
    void namesTheSettingOfAProgramThatDoesNotExist() {
        CommandNotFoundException e = assertThrows(CommandNotFoundException.class,
                () -> runner.run(command(LIMITS, dir.resolve("no-such-qstat").toString(), "-f")));
        assertTrue(e.getMessage().contains("(setting agent.pbs.qstat): no such file or directory"), e.getMessage());
    }

    @Test
    void killsAHungCommandAndTheProcessesItStarted() throws Exception {
        Path marker = dir.resolve("child.pid");
        Path hung = script("hung", "sleep 300 &\necho $! > " + marker + "\nwait");
        CommandLimits short_ = new CommandLimits(Duration.ofMillis(700), "agent.commandTimeout", 1 << 20, "x");
        long begin = System.nanoTime();
        CommandTimeoutException e = assertThrows(CommandTimeoutException.class,
                () -> runner.run(command(short_, hung.toString())));
        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 10);
        assertTrue(e.getMessage().contains("did not finish within 0.7s") && e.getMessage().contains(
                "agent.commandTimeout"), e.getMessage());
        long child = Long.parseLong(Files.readString(marker).trim());
        for (int i = 0; i < 50 && ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(100);
        }
        assertFalse(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "child still running");
    }

    @Test
    void failsWhenTheOutputExceedsTheCap() {
        CommandLimits tiny = new CommandLimits(Duration.ofSeconds(10), "t", 1000, "agent.commandMaxOutput");
        CommandOutputTooLargeException e = assertThrows(CommandOutputTooLargeException.class,
                () -> runner.run(command(tiny, "sh", "-c", "yes hpcscale | head -c 100000")));
        assertTrue(e.getMessage().contains("more than 1000 bytes") && e.getMessage().contains(
                "agent.commandMaxOutput"), e.getMessage());
    }

    @Test
    void givesCommandsAnEmptyStdin() throws Exception {
        assertEquals("", runner.run(command(LIMITS, "cat")).stdoutText());
    }

    @Test
    void aCommandThatExitsLeavingAChildOnItsOutputIsNotWaitedForAndLeavesNoOrphan() throws Exception {
        Path marker = dir.resolve("child.pid");
        Path leaves = script("leaves", "sleep 300 &\necho $! > " + marker + "\necho started");
        long begin = System.nanoTime();
        CommandResult result = runner.run(command(LIMITS, leaves.toString()));
        assertEquals("started\n", result.stdoutText());
        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 5, "not held for the timeout");
        long child = Long.parseLong(Files.readString(marker).trim());
        assertTrue(endsWithinSeconds(child, 5), "the orphan was killed");
    }

    @Test
    void aBackgroundChildThatLetGoOfTheOutputIsLeftAlone() throws Exception {
        Path marker = dir.resolve("daemon.pid");
        Path starts = script("starts", "nohup sleep 300 >/dev/null 2>&1 &\necho $! > " + marker);
        runner.run(command(LIMITS, starts.toString()));
        long daemon = Long.parseLong(Files.readString(marker).trim());
        try {
            assertFalse(endsWithinSeconds(daemon, 1), "a power script's nohup'd process is the script's business");
        } finally {
            ProcessHandle.of(daemon).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void commandsRunInAProcessGroupOfTheirOwn() throws Exception {
        long own = Long.parseLong(runner.run(command(LIMITS, "sh", "-c", "ps -o pgid= -p $$")).stdoutText().trim());
        String ours = Files.readString(Path.of("/proc/self/stat"));
        long jvmGroup = Long.parseLong(ours.substring(ours.lastIndexOf(')') + 2).split(" ")[2]);
        assertTrue(own != jvmGroup, "a signal to hpcscale's group must not reach the command");
    }

    /** A killed orphan may linger as a zombie where PID 1 does not reap: that counts as ended. */
    private static boolean endsWithinSeconds(long pid, int seconds) throws InterruptedException {
        for (int i = 0; i < seconds * 10; i++) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                if (stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
                    return true;
                }
            } catch (IOException gone) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }
}
