package io.hpcscale.agent.pbs;

import java.util.List;

/**
 * A job that cannot be read, but whose {@code exec_host} could: its document is kept as it was, and its nodes are
 * still held by it.
 */
final class UnreadableJobException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> hosts;

    UnreadableJobException(String message, List<String> hosts) {
        super(message);
        this.hosts = List.copyOf(hosts);
    }

    List<String> hosts() {
        return hosts;
    }
}
