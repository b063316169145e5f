package io.hpcscale.agent.pbs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Stand-in {@code qstat} and {@code pbsnodes} executables in a directory to put first on the PATH. They print
 * fixture files, record their arguments in {@code calls.log}, and keep offline marks the way a PBS server would:
 * {@code pbsnodes -o -C comment node} makes later {@code pbsnodes -a} output show the node offline with the comment,
 * {@code pbsnodes -r} clears it. {@code qstat} can be made to fail, hang or print garbage, and {@code qstat -Q} to
 * fail.
 */
final class StandInPbs {
    private final Path dir;

    StandInPbs(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        write("queues.json", Fixtures.text(Fixtures.CLOUD_QUEUES));
        write("nodes.json", Fixtures.text(Fixtures.NODES));
        write("jobs.json", Fixtures.text(Fixtures.CLOUD_JOBS));
        write("garbage.txt", "qstat: Unknown queue\n<html><body>proxy error</body></html>\n");
        qstatPrints("jobs.json");
        executable("qstat", """
                #!/bin/sh
                d='%s'
                printf '%%s\\n' "qstat $*" >> "$d/calls.log"
                case " $* " in
                  *" -Q "*)
                    if [ -f "$d/queues.fail" ]; then
                      echo "qstat: cannot connect to server pbsserver (errno=15010)" >&2; exit 2
                    fi
                    exec cat "$d/queues.json" ;;
                esac
                mode=$(cat "$d/qstat.mode")
                case "$mode" in
                  fail) echo "qstat: cannot connect to server pbsserver (errno=15010)" >&2; exit 2 ;;
                  hang) exec sleep 300 ;;
                  slow) touch "$d/qstat.began"; sleep 1.5; exec cat "$d/jobs.json" ;;
                  *) exec cat "$d/$mode" ;;
                esac
                """.formatted(dir));
        executable("pbsnodes", """
                #!/bin/sh
                d='%s'
                printf '%%s\\n' "pbsnodes $*" >> "$d/calls.log"
                case "$1" in
                  -o) printf '%%s' "$3" > "$d/offline.$4"; exit 0 ;;
                  -r) rm -f "$d/offline.$4"; exit 0 ;;
                esac
                exec perl -e '
                  my $d = shift; local $/; open my $in, "<", "$d/nodes.json" or die; my $json = <$in>;
                  for my $f (glob("$d/offline.*")) {
                    my ($node) = $f =~ /offline\\.(.+)$/; open my $c, "<", $f or die; my $comment = <$c>;
                    $json =~ s/("\\Q$node\\E":\\{.*?"state":")[^"]*"/$1offline"/s;
                    $json =~ s/("\\Q$node\\E":\\{)/$1\\n            "comment":"$comment",/s;
                  }
                  print $json;' "$d"
                """.formatted(dir));
    }

    Path directory() {
        return dir;
    }

    /** {@code qstat -f} prints this file of the stand-in's directory. */
    void qstatPrints(String file) throws IOException {
        write("qstat.mode", file);
    }

    /** {@code qstat -Q} fails as it does when the server is down. */
    void queuesFail() throws IOException {
        write("queues.fail", "");
    }

    void qstatFails() throws IOException {
        write("qstat.mode", "fail");
    }

    void qstatHangs() throws IOException {
        write("qstat.mode", "hang");
    }

    /** {@code qstat -f} takes one and a half seconds, and leaves {@code qstat.began} when it begins. */
    void qstatIsSlow() throws IOException {
        write("qstat.mode", "slow");
    }

    void write(String file, String content) throws IOException {
        Files.writeString(dir.resolve(file), content, StandardCharsets.UTF_8);
    }

    List<String> calls() throws IOException {
        Path log = dir.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private void executable(String name, String script) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
