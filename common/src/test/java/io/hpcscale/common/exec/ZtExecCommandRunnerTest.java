package io.hpcscale.common.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
    void givesTheCommandItsInputOnStandardInputAndClosesIt() throws Exception {
        String input = "{\"pool\": \"b\u00e9ta\"}";
        assertEquals(input, runner.run(command(LIMITS, "cat").withInput(input)).stdoutText());
        assertEquals("", runner.run(command(LIMITS, "cat")).stdoutText(), "no input: an empty, closed stdin");
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

    /** A reader's own verdict on output it cannot make sense of. */
    private static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    private static long count(InputStream in) throws IOException {
        long total = 0;
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            total += n;
        }
        return total;
    }

    @Test
    void theReaderReadsTheOutputWhileTheCommandIsStillRunning() throws Exception {
        Path marker = dir.resolve("first-line-read");
        Path printer = script("printer", "echo first\nwhile [ ! -f " + marker + " ]; do sleep 0.05; done\necho second");
        StreamedResult<List<String>> result = runner.run(command(LIMITS, printer.toString()), stdout -> {
            BufferedReader lines = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8));
            String first = lines.readLine();
            Files.createFile(marker);
            return List.of(first, lines.readLine());
        });
        assertEquals(List.of("first", "second"), result.value(), "the second line waits for the first to be read");
    }

    @Test
    void keepsStderrOfAStreamedCommand() throws Exception {
        StreamedResult<Long> result = runner.run(command(LIMITS, "sh", "-c", "printf abc; echo careful >&2"),
                ZtExecCommandRunnerTest::count);
        assertEquals(3L, result.value());
        assertEquals("careful\n", result.stderr());
    }

    @Test
    void aNonZeroExitFailsTheCommandEvenWhenTheReaderReadEverything() {
        CommandFailedException e = assertThrows(CommandFailedException.class, () -> runner.run(
                command(LIMITS, "sh", "-c", "printf '{}'; echo 'qstat: Unknown Job Id' >&2; exit 3"),
                InputStream::readAllBytes));
        assertEquals(3, e.exitCode());
        assertTrue(e.getMessage().contains("qstat: Unknown Job Id"), e.getMessage());
    }

    @Test
    void theReadersVerdictIsReportedWhenTheCommandSucceeded() {
        Unreadable e = assertThrows(Unreadable.class, () -> runner.run(command(LIMITS, "sh", "-c", "echo garbage"),
                stdout -> {
                    throw new Unreadable("not JSON: " + new String(stdout.readAllBytes(), StandardCharsets.UTF_8));
                }));
        assertEquals("not JSON: garbage\n", e.getMessage());
    }

    @Test
    void aFailedCommandIsReportedRatherThanTheReadersVerdictOnItsCutShortOutput() {
        assertThrows(CommandFailedException.class, () -> runner.run(
                command(LIMITS, "sh", "-c", "printf '{\"Jobs\"'; exit 2"), stdout -> {
                    stdout.readAllBytes();
                    throw new Unreadable("the object is not closed");
                }));
    }

    @Test
    void aReaderThatFailsReadingNamesTheCommand() {
        CommandOutputException e = assertThrows(CommandOutputException.class,
                () -> runner.run(command(LIMITS, "echo", "x"), stdout -> {
                    throw new IOException("disk full");
                }));
        assertTrue(e.getMessage().contains("reading the output of `echo x` failed: disk full"), e.getMessage());
    }

    @Test
    void aReaderThatStopsEarlyDoesNotHoldTheCommandUp() throws Exception {
        CommandLimits large = new CommandLimits(Duration.ofSeconds(10), "t", 1L << 30, "agent.commandMaxOutput");
        long begin = System.nanoTime();
        StreamedResult<Integer> result = runner.run(command(large, "sh", "-c", "head -c 50000000 /dev/zero; echo done"),
                stdout -> stdout.read());
        assertEquals(0, result.value());
        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 8, "not held until the timeout");
    }

    @Test
    void streamsOutputFarLargerThanThePipeBetweenTheThreads() throws Exception {
        CommandLimits large = new CommandLimits(Duration.ofSeconds(30), "t", 1L << 30, "agent.commandMaxOutput");
        assertEquals(30_000_000L, runner.run(command(large, "head", "-c", "30000000", "/dev/zero"),
                ZtExecCommandRunnerTest::count).value());
    }

    @Test
    void aStreamedCommandThatExceedsTheCapIsKilledAndNamesTheSetting() {
        CommandLimits tiny = new CommandLimits(Duration.ofSeconds(10), "t", 1000, "agent.commandMaxOutput");
        long[] seen = new long[1];
        CommandOutputTooLargeException e = assertThrows(CommandOutputTooLargeException.class,
                () -> runner.run(command(tiny, "sh", "-c", "yes hpcscale"), stdout -> seen[0] = count(stdout)));
        assertTrue(e.getMessage().contains("agent.commandMaxOutput"), e.getMessage());
        assertTrue(seen[0] <= 1000, "the reader saw " + seen[0] + " bytes");
    }

    @Test
    void aHungCommandIsKilledWhileItsReaderWaitsForOutput() throws Exception {
        Path marker = dir.resolve("child.pid");
        Path hung = script("hung", "echo '{'\nsleep 300 &\necho $! > " + marker + "\nwait");
        CommandLimits short_ = new CommandLimits(Duration.ofMillis(700), "agent.commandTimeout", 1 << 20, "x");
        long begin = System.nanoTime();
        assertThrows(CommandTimeoutException.class, () -> runner.run(command(short_, hung.toString()), stdout -> {
            count(stdout);
            throw new Unreadable("the object is not closed");
        }));
        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 10);
        assertTrue(endsWithinSeconds(Long.parseLong(Files.readString(marker).trim()), 5), "child still running");
    }

    @Test
    void aStreamedCommandThatLeavesAChildOnItsOutputEndsItsOutputAndLeavesNoOrphan() throws Exception {
        Path marker = dir.resolve("child.pid");
        Path leaves = script("leaves", "sleep 300 &\necho $! > " + marker + "\necho started");
        long begin = System.nanoTime();
        StreamedResult<byte[]> result = runner.run(command(LIMITS, leaves.toString()), InputStream::readAllBytes);
        assertEquals("started\n", new String(result.value(), StandardCharsets.UTF_8));
        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 5, "not held for the timeout");
        assertTrue(endsWithinSeconds(Long.parseLong(Files.readString(marker).trim()), 5), "the orphan was killed");
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
