package io.hpcscale.common.exec;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /** Kills the processes of the group whose stdout or stderr is a pipe; returns how many. */
    static int killThoseWritingToPipes(long groupId) {
        int killed = 0;
        for (ProcessHandle member : members(groupId)) {
            if (writesToPipe(member.pid())) {
                member.destroyForcibly();
                killed++;
            }
        }
        return killed;
    }

    private static boolean writesToPipe(long pid) {
        for (String fd : List.of("1", "2")) {
            try {
                if (Files.readSymbolicLink(PROC.resolve(pid + "/fd/" + fd)).toString().startsWith("pipe:")) {
                    return true;
                }
            } catch (IOException gone) {
                // No such descriptor, or the process ended meanwhile: nothing to kill for it.
            }
        }
        return false;
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
