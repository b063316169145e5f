package io.hpcscale.agent.pbs;

import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stand-in {@code qstat} and {@code pbsnodes} executables in a directory to put first on the PATH. They print the
 * server's state from files ({@code jobs.json}, {@code queues.json}, {@code nodes.json}: fixtures, or what
 * {@link StandInPbsServer} renders), record their arguments in {@code calls.log}, and keep node marks as a real
 * OpenPBS 23.06 server does (../shared/notes/pbs-as-it-really-behaves.md and the real outputs in
 * {@code fixtures/pbs/real}):
 * <ul>
 *   <li>{@code pbsnodes -o} adds {@code offline} to the node's state list ({@code free} becomes {@code offline},
 *       {@code job-busy} becomes {@code offline,job-busy}, {@code down} becomes {@code down,offline});
 *       {@code -r} removes only {@code offline} and keeps the comment; {@code -C} sets the comment, cut to 79
 *       characters as pbsnodes' {@code snprintf(Comment, 80, ...)} does, and {@code -C ""} clears it;</li>
 *   <li>a node's own comment hides the server's {@code node down: communication closed} (cn007 of the real
 *       capture kept the administrator's comment when its mom died);</li>
 *   <li>a user who is not an operator is refused with pbsnodes' own words, {@code Error marking node N -
 *       Unauthorized Request}, before the node is even looked up (OpenPBS {@code req_manager} checks the
 *       permission first), so a node that does not exist answers {@code Unknown node} only to an operator; the
 *       server sees its clients as {@code user@localhost}, as on the captured host, so {@code hpcscale@*} and
 *       {@code hpcscale@localhost} are operators and {@code hpcscale@<host's FQDN>} is not;</li>
 *   <li>while the server is down every command fails as it does then, with exit status 1.</li>
 * </ul>
 * JSON::PP writes the nodes with sorted keys, not in PBS's order: nothing may depend on the order of attributes.
 * {@code qstat} can also be made to fail, hang or print garbage, and {@code qstat -Q} to fail.
 */
final class StandInPbs {
    /** The user the stand-in commands run as, unless {@code PBS_STANDIN_USER} names another. */
    static final String USER_VARIABLE = "PBS_STANDIN_USER";

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
                if [ -e "$d/server.down" ]; then
                  echo "qstat: cannot connect to server pbsserver (errno=15010)" >&2; exit 2
                fi
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
                #!/usr/bin/perl
                use strict;
                use warnings;
                use JSON::PP;
                my $d = '%s';
                open(my $log, '>>', "$d/calls.log") or die; print $log join(' ', 'pbsnodes', @ARGV), "\\n"; close $log;
                if (-e "$d/server.down") {
                    print STDERR "pbsnodes: cannot connect to server pbsserver, error=15010\\n"; exit 1;
                }
                my ($mark, $comment, $all, @hosts);
                while (@ARGV) {
                    my $a = shift @ARGV;
                    if ($a eq '-o' || $a eq '-r') { $mark = $a; }
                    elsif ($a eq '-C') { $comment = shift @ARGV; }
                    elsif ($a eq '-a') { $all = 1; }
                    elsif ($a eq '-F') { shift @ARGV; }
                    else { push @hosts, $a; }
                }
                my $json = JSON::PP->new->utf8->canonical->pretty;
                my $text = do { local $/; open(my $in, '<', "$d/nodes.json") or die; <$in> };
                my $nodes = eval { $json->decode($text) };
                if ($all && (ref $nodes ne 'HASH' || ref $nodes->{nodes} ne 'HASH')) {
                    # Not a server's state but a test's broken output: printed as it is.
                    print $text;
                    exit 0;
                }
                if ($all) {
                    for my $name (keys %%{$nodes->{nodes}}) {
                        my $node = $nodes->{nodes}{$name};
                        my @state = split(/,/, $node->{state});
                        my $offline = grep { $_ eq 'offline' } @state;
                        if (-e "$d/offline.$name") {
                            open(my $f, '<', "$d/offline.$name") or die; $offline = <$f> eq '1';
                        }
                        @state = grep { $_ ne 'offline' } @state;
                        @state = ('free') unless @state;
                        if ($offline) {
                            @state = grep { $_ ne 'free' } @state;
                            my @front = grep { $_ eq 'state-unknown' || $_ eq 'down' } @state;
                            my @back = grep { $_ ne 'state-unknown' && $_ ne 'down' } @state;
                            @state = (@front, 'offline', @back);
                        }
                        $node->{state} = join(',', @state);
                        if (-e "$d/comment.$name") {
                            open(my $c, '<', "$d/comment.$name") or die; local $/; $node->{comment} = <$c>;
                        }
                    }
                    print $json->encode($nodes);
                    exit 0;
                }
                my $user = $ENV{PBS_STANDIN_USER} // scalar getpwuid($<);
                my $operator = 1;
                if (-e "$d/operators") {
                    open(my $o, '<', "$d/operators") or die;
                    $operator = grep { chomp; $_ eq "$user\\@*" || $_ eq "$user\\@localhost" } <$o>;
                }
                my $rc = 0;
                for my $host (@hosts) {
                    if (!$operator) { print STDERR "Error marking node $host - Unauthorized Request\\n"; $rc = 1; next; }
                    if (ref $nodes ne 'HASH' || !exists $nodes->{nodes}{$host}) { print STDERR "Error marking node $host - Unknown node\\n"; $rc = 1; next; }
                    if (defined $mark) {
                        open(my $f, '>', "$d/offline.$host") or die; print $f ($mark eq '-o' ? '1' : '0'); close $f;
                    }
                    if (defined $comment) {
                        if ($comment eq '') { unlink "$d/comment.$host"; next; }
                        open(my $f, '>', "$d/comment.$host.new") or die; print $f substr($comment, 0, 79); close $f;
                        rename "$d/comment.$host.new", "$d/comment.$host" or die;
                    }
                }
                exit $rc;
                """.formatted(dir));
    }

    Path directory() {
        return dir;
    }

    /** The production adapter on these commands, through the real command runner, with a 5 s command timeout. */
    PbsAdapter adapter() {
        return new PbsAdapter(new ZtExecCommandRunner(), new PbsCommands(dir.resolve("qstat").toString(),
                dir.resolve("pbsnodes").toString(), new CommandLimits(Duration.ofSeconds(5), "agent.commandTimeout",
                        1 << 20, "agent.commandMaxOutput")), ZoneOffset.UTC);
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

    /** The server's {@code operators} list; without one every user is an operator. */
    void operators(String... entries) throws IOException {
        write("operators", String.join("\n", entries) + "\n");
    }

    /** While the server is down, every command fails as it does when it cannot connect. */
    void serverDown(boolean down) throws IOException {
        Path flag = dir.resolve("server.down");
        if (down) {
            Files.writeString(flag, "");
        } else {
            Files.deleteIfExists(flag);
        }
    }

    /** What a pbs_server restart does to node comments: every one is gone, {@code offline} stays. */
    void dropComments() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("comment.")).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Whether {@code pbsnodes -o} marked the node and no {@code -r} cleared it since. */
    boolean offline(String node) throws IOException {
        Path mark = dir.resolve("offline." + node);
        return Files.exists(mark) && Files.readString(mark).equals("1");
    }

    /**
     * Runs the stand-in {@code pbsnodes} as an administrator would, as root unless {@code user} is given.
     *
     * @return the exit status and standard error
     */
    Run pbsnodes(String user, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(dir.resolve("pbsnodes").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        if (user != null) {
            builder.environment().put(USER_VARIABLE, user);
        }
        Process process = builder.start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the stand-in pbsnodes did not finish");
        }
        return new Run(process.exitValue(), stderr);
    }

    record Run(int exitCode, String stderr) {
    }

    void write(String file, String content) throws IOException {
        Path target = dir.resolve(file);
        Path temporary = dir.resolve(file + ".new");
        Files.writeString(temporary, content, StandardCharsets.UTF_8);
        Files.move(temporary, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
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
