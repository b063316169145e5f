package io.hpcscale.common.exec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.zeroturnaround.exec.InvalidExitValueException;
import org.zeroturnaround.exec.ProcessExecutor;
import org.zeroturnaround.exec.ProcessResult;
import org.zeroturnaround.exec.listener.ProcessListener;
import org.zeroturnaround.exec.stop.ProcessStopper;

/**
 * Runs commands with zt-exec. Commands get an empty stdin and the C locale (stable output to parse); a command that
 * times out or prints too much is killed together with the processes it started, so a wrapper script cannot leave a
 * hung child holding the output pipe open.
 */
public final class ZtExecCommandRunner implements CommandRunner {
    private static final int STDERR_KEPT_BYTES = 16 * 1024;

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
        long begin = System.nanoTime();
        ProcessResult result;
        try {
            result = new ProcessExecutor()
                    .command(command.argv())
                    .environment(environment)
                    .environment(command.environment())
                    .redirectInput(InputStream.nullInputStream())
                    .redirectOutput(stdout)
                    .redirectError(stderr)
                    .timeout(command.limits().timeout().toMillis(), TimeUnit.MILLISECONDS)
                    .stopper(new TreeStopper())
                    .addListener(new ProcessListener() {
                        @Override
                        public void afterStart(Process process, ProcessExecutor executor) {
                            started.set(process);
                        }
                    })
                    .exitValueAny()
                    .destroyOnExit()
                    .execute();
        } catch (TimeoutException e) {
            throw new CommandTimeoutException(command);
        } catch (InvalidExitValueException e) {
            throw new CommandFailedException(command, e.getExitValue(), stderr.text());
        } catch (IOException e) {
            throw new CommandNotFoundException(command, rootMessage(e), e);
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

    private static void kill(Process process) {
        if (process != null) {
            new TreeStopper().stop(process);
        }
    }

    /** Kills the process and every process it started; the children are listed first, before they are orphaned. */
    private static final class TreeStopper implements ProcessStopper {
        @Override
        public void stop(Process process) {
            List<ProcessHandle> children = process.descendants().toList();
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
