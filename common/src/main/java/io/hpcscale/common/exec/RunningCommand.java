package io.hpcscale.common.exec;

import java.io.ByteArrayInputStream;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeroturnaround.exec.ProcessExecutor;
import org.zeroturnaround.exec.ProcessResult;
import org.zeroturnaround.exec.listener.ProcessListener;
import org.zeroturnaround.exec.stop.ProcessStopper;
import org.zeroturnaround.exec.stream.PumpStreamHandler;
import org.zeroturnaround.exec.stream.StreamPumper;

/**
 * One command of {@link ZtExecCommandRunner}, started and waited for by zt-exec on a thread of its own, while the
 * caller reads its output from {@link #stdout()} as it comes.
 *
 * <p>The command reads its {@link CommandLine#input} (most get none), then end of file, and runs in a process group
 * of its own ({@link ProcessGroups}). One that times out or prints too much is killed with its whole group. One that
 * exited but left a background child holding its output open is not waited for beyond a short linger: what is left
 * of its group is killed then, and its output ends
 * there for the reader, rather than holding the call up until the timeout. A background child that let go of the
 * output (a power script's {@code nohup ... >/dev/null &}) is left alone.
 */
final class RunningCommand {
    private static final Logger log = LoggerFactory.getLogger(RunningCommand.class);
    private static final int STDERR_KEPT_BYTES = 16 * 1024;
    private static final long LINGER_MILLIS = 2000;
    /** Room between the pump and the reader: enough to keep both busy, small enough not to matter in the heap. */
    private static final int PIPE_BYTES = 1 << 20;
    /** What the pump reads from the process at once; zt-exec's own 1 KiB costs a system call per kilobyte. */
    private static final int PUMP_BYTES = 64 * 1024;

    private final CommandLine command;
    private final AtomicReference<Process> started = new AtomicReference<>();
    private boolean killWhenStarted;
    private final OutputPipe stdout = new OutputPipe(PIPE_BYTES);
    private final CappedOutput cappedStdout;
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final FutureTask<ProcessResult> execution;
    private final Thread waiter;
    private final long begin = System.nanoTime();

    private RunningCommand(CommandLine command, List<String> argv, Map<String, String> environment) {
        this.command = command;
        this.cappedStdout = new CappedOutput(command.limits().maxOutputBytes(), this::kill, stdout.sink());
        ProcessExecutor executor = new ProcessExecutor()
                .command(argv)
                .environment(environment)
                .environment(command.environment())
                .redirectErrorStream(false)
                .streams(new Pumps(cappedStdout, new CappedOutput(STDERR_KEPT_BYTES, () -> { }, stderr),
                        new ByteArrayInputStream(command.input().getBytes(StandardCharsets.UTF_8))))
                .timeout(command.limits().timeout().toMillis(), TimeUnit.MILLISECONDS)
                .closeTimeout(LINGER_MILLIS, TimeUnit.MILLISECONDS)
                .stopper(new GroupStopper())
                .addListener(new GroupTracker())
                .exitValueAny();
        this.execution = new FutureTask<>(() -> execute(executor));
        this.waiter = new Thread(execution, "hpcscale-command");
        this.waiter.setDaemon(true);
    }

    /**
     * Starts the command.
     *
     * @throws CommandNotFoundException the program is not there to start
     */
    static RunningCommand start(CommandLine command, Map<String, String> environment)
            throws CommandNotFoundException {
        RunningCommand running = new RunningCommand(command, inOwnGroup(command), environment);
        running.waiter.start();
        return running;
    }

    /** The command's standard output as it prints it, up to its cap; it ends when the command's output does. */
    InputStream stdout() {
        return stdout.source();
    }

    /** The caller read what it needed: the rest is dropped, so the command is never blocked on its output. */
    void stopReading() {
        stdout.abandon();
    }

    /**
     * Waits for the command to end.
     *
     * @return how it ended, if it ran to its end
     * @throws CommandTimeoutException  it was killed at its timeout
     * @throws CommandNotFoundException it could not be started
     * @throws InterruptedException     this thread was interrupted; the command was stopped
     */
    Ended await() throws CommandException, InterruptedException {
        ProcessResult result;
        try {
            result = execution.get();
        } catch (InterruptedException e) {
            // zt-exec stops the command when its wait is interrupted.
            waiter.interrupt();
            joinUninterruptibly();
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof TimeoutException) {
                throw new CommandTimeoutException(command);
            }
            if (cause instanceof IOException io) {
                // Not chained: zt-exec's message names the whole command line, secrets and all.
                throw new CommandNotFoundException(command, rootMessage(io), null);
            }
            if (cause instanceof InterruptedException) {
                throw new InterruptedException("the command's waiter was interrupted");
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("running `" + command.display() + "` failed", cause);
        }
        return new Ended(result.getExitValue(), cappedStdout.overflowed(), stderr.toString(StandardCharsets.UTF_8),
                Duration.ofNanos(System.nanoTime() - begin));
    }

    /**
     * How a command that ran to its end ended.
     *
     * @param overflowed it printed more than its cap and was killed for it
     */
    record Ended(int exitCode, boolean overflowed, String stderr, Duration elapsed) {
    }

    private ProcessResult execute(ProcessExecutor executor) throws Exception {
        try {
            return executor.execute();
        } finally {
            Process process = started.get();
            if (process != null) {
                endGroup(process);
            }
            stdout.close();
        }
    }

    private void joinUninterruptibly() {
        boolean interrupted = false;
        while (waiter.isAlive()) {
            try {
                waiter.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Kills the command for its output: zt-exec starts the output pumps before it tells {@link GroupTracker} the
     * process started, so the cap may be passed before the process is known. The kill is then kept for the moment
     * it is: otherwise a command printing without end would run until its timeout.
     */
    private void kill() {
        Process process;
        synchronized (started) {
            process = started.get();
            killWhenStarted = process == null;
        }
        if (process != null) {
            new GroupStopper().stop(process);
        }
    }

    /**
     * Once the command exited, nothing reads its output any more; a process it left in its group still writing to a
     * pipe (its share of that output) would stay behind as an orphan, and is killed. Processes whose output goes
     * elsewhere (a power script's {@code nohup ... >/dev/null &}) are the command's business and are left alone.
     */
    private void endGroup(Process process) {
        long group = process.pid();
        ProcessGroups.ended(group);
        int killed = ProcessGroups.killThoseWritingToPipes(group);
        if (killed > 0) {
            log.warn("`{}` exited but left {} process(es) writing to its output; they were killed",
                    command.display(), killed);
        }
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

    /** Notes the process group of the command as it starts. */
    private final class GroupTracker extends ProcessListener {
        @Override
        public void afterStart(Process process, ProcessExecutor executor) {
            boolean kill;
            synchronized (started) {
                started.set(process);
                kill = killWhenStarted;
            }
            ProcessGroups.started(process.pid());
            if (kill) {
                new GroupStopper().stop(process);
            }
        }
    }

    /** zt-exec's pumps: the command's input on its stdin, and a stdout pump that reads in large pieces. */
    private static final class Pumps extends PumpStreamHandler {
        Pumps(OutputStream stdout, OutputStream stderr, InputStream stdin) {
            super(stdout, stderr, stdin);
        }

        @Override
        protected void createProcessOutputPump(InputStream is, OutputStream os) {
            outputThread = newThread(new StreamPumper(is, os, false, PUMP_BYTES));
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
}
