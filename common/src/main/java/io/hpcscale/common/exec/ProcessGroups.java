package io.hpcscale.common.exec;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commands run in a process group of their own (through {@code setsid}), so that a signal meant for hpcscale (Ctrl-C,
 * systemd's SIGTERM to the service's group) does not cut the call in flight short, and so that a command can be
 * killed with everything it started, including children that left it behind. Groups still running when the JVM
 * exits are killed: nothing hpcscale started outlives it.
 */
final class ProcessGroups {
    private static final Logger log = LoggerFactory.getLogger(ProcessGroups.class);
    private static final Path PROC = Path.of("/proc");
    private static final Set<Long> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessGroups::killAll, "hpcscale-kill-commands"));
    }

    private ProcessGroups() {
    }

    /** The {@code setsid} program that starts a command as the leader of a new session and process group. */
    static Optional<Path> setsid() {
        for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            Path path = Path.of(candidate);
            if (Files.isExecutable(path)) {
                return Optional.of(path);
            }
        }
        return Optional.empty();
    }

    static void started(long groupId) {
        RUNNING.add(groupId);
    }

    static void ended(long groupId) {
        RUNNING.remove(groupId);
    }

    /** Kills every process of the group, whatever became of its leader; returns how many there were. */
    static int kill(long groupId) {
        List<ProcessHandle> members = members(groupId);
        members.forEach(ProcessHandle::destroyForcibly);
        return members.size();
    }

    /** The pipes this JVM has open now. */
    static Set<String> ourPipes() {
        return pipesOf(PROC.resolve("self"));
    }

    /**
     * Kills the processes of the group that hold one of {@code pipes} (the command's output, as it was when it
     * started): children a command left behind on its output when it exited. Those that let go of it (a daemon
     * started with its output elsewhere) are left.
     */
    static int killHolders(long groupId, Set<String> pipes) {
        int killed = 0;
        for (ProcessHandle member : members(groupId)) {
            Set<String> theirs = pipesOf(PROC.resolve(Long.toString(member.pid())));
            theirs.retainAll(pipes);
            if (!theirs.isEmpty()) {
                member.destroyForcibly();
                killed++;
            }
        }
        return killed;
    }

    /** The pipes a process has open, as /proc names them: "pipe:[123456]". */
    private static Set<String> pipesOf(Path process) {
        Set<String> pipes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("pipe:")) {
                        pipes.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // The descriptor went away between the listing and the read: it holds nothing now.
                }
            }
        } catch (IOException e) {
            log.debug("cannot list the descriptors of {}: {}", process, e.getMessage());
        }
        return pipes;
    }

    /** Kills the groups of every command still running. */
    static void killAll() {
        for (Long group : List.copyOf(RUNNING)) {
            int killed = kill(group);
            if (killed > 0) {
                log.warn("killed {} processes of a command still running as hpcscale exits", killed);
            }
        }
    }

    /** Processes whose process group is {@code groupId}, read from /proc. */
    static List<ProcessHandle> members(long groupId) {
        List<ProcessHandle> members = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path entry : entries) {
                long pid = Long.parseLong(entry.getFileName().toString());
                if (groupOf(entry) == groupId) {
                    ProcessHandle.of(pid).ifPresent(members::add);
                }
            }
        } catch (IOException e) {
            log.debug("cannot list /proc: {}", e.getMessage());
        }
        return members;
    }

    /** The process group in /proc/PID/stat: the fifth field, counted after the command name in parentheses. */
    private static long groupOf(Path processDirectory) {
        try {
            String stat = Files.readString(processDirectory.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[2]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static boolean isNumber(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }
}
