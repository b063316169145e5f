package io.hpcscale.common.exec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.zeroturnaround.exec.InvalidExitValueException;
import org.zeroturnaround.exec.ProcessExecutor;
import org.zeroturnaround.exec.ProcessResult;
import org.zeroturnaround.exec.listener.ProcessListener;
import org.zeroturnaround.exec.stop.ProcessStopper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands with zt-exec. Commands get an empty stdin and the C locale (stable output to parse), and run in a
 * process group of their own ({@link ProcessGroups}): a signal to hpcscale does not reach them, so the call in
 * flight finishes when hpcscale is asked to stop. A command that times out or prints too much is killed together
 * with its whole group. A command that exited is not waited for beyond a short linger for the rest of its output,
 * and what it left in its group still writing to its output is killed rather than staying behind as an orphan; a
 * background child that let go of the output (a power script's {@code nohup ... >/dev/null &}) is left alone.
 */
public final class ZtExecCommandRunner implements CommandRunner {
    private static final Logger log = LoggerFactory.getLogger(ZtExecCommandRunner.class);
    private static final int STDERR_KEPT_BYTES = 16 * 1024;
    /** How long the rest of the output of a command that exited is waited for. */
    private static final long LINGER_MILLIS = 2000;

    private final Map<String, String> environment;

    public ZtExecCommandRunner() {
        this(Map.of("LC_ALL", "C"));
    }

    public ZtExecCommandRunner(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public CommandResult run(CommandLine command) throws CommandException, InterruptedException {
        AtomicReference<Process> started = new AtomicReference<>();
        CappedOutput stdout = new CappedOutput(command.limits().maxOutputBytes(), () -> kill(started.get()));
        CappedOutput stderr = new CappedOutput(STDERR_KEPT_BYTES, () -> { });
        List<String> argv = inOwnGroup(command);
        long begin = System.nanoTime();
        ProcessResult result;
        try {
            result = new ProcessExecutor()
                    .command(argv)
                    .environment(environment)
                    .environment(command.environment())
                    .redirectInput(InputStream.nullInputStream())
                    .redirectOutput(stdout)
                    .redirectError(stderr)
                    .timeout(command.limits().timeout().toMillis(), TimeUnit.MILLISECONDS)
                    .closeTimeout(LINGER_MILLIS, TimeUnit.MILLISECONDS)
                    .stopper(new GroupStopper())
                    .addListener(new ProcessListener() {
                        @Override
                        public void afterStart(Process process, ProcessExecutor executor) {
                            started.set(process);
                            ProcessGroups.started(process.pid());
                        }
                    })
                    .exitValueAny()
                    .execute();
        } catch (TimeoutException e) {
            throw new CommandTimeoutException(command);
        } catch (InvalidExitValueException e) {
            throw new CommandFailedException(command, e.getExitValue(), stderr.text());
        } catch (IOException e) {
            throw new CommandNotFoundException(command, rootMessage(e), e);
        } finally {
            Process process = started.get();
            if (process != null) {
                endGroup(command, process);
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - begin);
        if (stdout.overflowed()) {
            throw new CommandOutputTooLargeException(command);
        }
        if (result.getExitValue() != 0) {
            throw new CommandFailedException(command, result.getExitValue(), stderr.text());
        }
        return new CommandResult(command, stdout.bytes(), stderr.text(), elapsed);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.toString() : root.getMessage();
        if (message.contains("error=2,")) {
            return "no such file or directory";
        }
        if (message.contains("error=13,")) {
            return "permission denied (is it executable by this user?)";
        }
        return message;
    }

    /**
     * The command as the leader of a new process group, through {@code setsid}. The program is looked up here, so a
     * missing one is reported as missing rather than as a failure of setsid.
     */
    private static List<String> inOwnGroup(CommandLine command) throws CommandNotFoundException {
        Optional<Path> setsid = ProcessGroups.setsid();
        if (setsid.isEmpty()) {
            return command.argv();
        }
        Path program = resolve(command);
        List<String> argv = new ArrayList<>(command.argv().size() + 1);
        argv.add(setsid.get().toString());
        argv.add(program.toString());
        argv.addAll(command.argv().subList(1, command.argv().size()));
        return argv;
    }

    private static Path resolve(CommandLine command) throws CommandNotFoundException {
        String program = command.program();
        if (program.contains("/")) {
            return checked(command, Path.of(program));
        }
        String path = System.getenv("PATH");
        for (String directory : (path == null ? "/usr/bin:/bin" : path).split(":")) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new CommandNotFoundException(command, "no such file or directory (not found on the PATH)", null);
    }

    private static Path checked(CommandLine command, Path program) throws CommandNotFoundException {
        if (!Files.exists(program)) {
            throw new CommandNotFoundException(command, "no such file or directory", null);
        }
        if (!Files.isRegularFile(program) || !Files.isExecutable(program)) {
            throw new CommandNotFoundException(command, "permission denied (is it executable by this user?)", null);
        }
        return program;
    }

    /**
     * Once the command exited, the JVM stops reading its output; a process it left in its group still writing to a
     * pipe (its share of that output) would stay behind as an orphan, and is killed. Processes whose output goes
     * elsewhere (a power script's {@code nohup ... >/dev/null &}) are the command's business and are left alone.
     */
    private static void endGroup(CommandLine command, Process process) {
        long group = process.pid();
        ProcessGroups.ended(group);
        int killed = ProcessGroups.killThoseWritingToPipes(group);
        if (killed > 0) {
            log.warn("`{}` exited but left {} process(es) writing to its output; they were killed",
                    command.display(), killed);
        }
    }

    private static void kill(Process process) {
        if (process != null) {
            new GroupStopper().stop(process);
        }
    }

    /** Kills the command's process group, and any descendant that moved to another group. */
    private static final class GroupStopper implements ProcessStopper {
        @Override
        public void stop(Process process) {
            List<ProcessHandle> children = process.descendants().toList();
            ProcessGroups.kill(process.pid());
            process.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Keeps output up to a cap; past it, drops the rest and reports the overflow once. */
    private static final class CappedOutput extends OutputStream {
        private final long cap;
        private final Runnable onOverflow;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private boolean overflowed;

        CappedOutput(long cap, Runnable onOverflow) {
            this.cap = cap;
            this.onOverflow = onOverflow;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            long room = cap - kept.size();
            if (len <= room) {
                kept.write(b, off, len);
                return;
            }
            if (room > 0) {
                kept.write(b, off, (int) room);
            }
            if (!overflowed) {
                overflowed = true;
                onOverflow.run();
            }
        }

        synchronized boolean overflowed() {
            return overflowed;
        }

        synchronized byte[] bytes() {
            return kept.toByteArray();
        }

        synchronized String text() {
            return kept.toString(StandardCharsets.UTF_8);
        }
    }
}
