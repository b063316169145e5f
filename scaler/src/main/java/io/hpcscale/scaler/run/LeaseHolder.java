package io.hpcscale.scaler.run;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who a scaler is, for the lease: its host, its process, and the host's kernel boot id.
 *
 * @param bootId distinguishes two boots of one host (and two hosts that share a name), so that a process id is only
 *               ever compared with processes of the same running kernel
 */
public record LeaseHolder(String host, long pid, String bootId) {

    public static LeaseHolder thisProcess() {
        return new LeaseHolder(hostName(), ProcessHandle.current().pid(), readBootId());
    }

    /** As written in the lease's {@code Holder}: {@code host:pid}. */
    public String name() {
        return host + ":" + pid;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null || fromEnvironment.isBlank() ? "localhost" : fromEnvironment;
        }
    }

    private static String readBootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
        } catch (IOException e) {
            return "";
        }
    }
}
