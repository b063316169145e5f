package io.hpcscale.agent.pbs;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A job's {@code exec_host}: {@code cn001/0+cn002/0}, two chunks on one node {@code cn003/0+cn003/1}, and in older
 * servers a CPU count after the slot ({@code node/0*4}).
 */
final class ExecHost {
    private ExecHost() {
    }

    /** The hosts named, each once, in order; none for a job that has not started. */
    static List<String> hosts(String execHost) {
        if (execHost == null || execHost.isBlank()) {
            return List.of();
        }
        Set<String> hosts = new LinkedHashSet<>();
        for (String part : execHost.split("\\+")) {
            String trimmed = part.strip();
            int slash = trimmed.indexOf('/');
            String host = slash < 0 ? trimmed : trimmed.substring(0, slash);
            if (!host.isEmpty()) {
                hosts.add(host);
            }
        }
        return List.copyOf(hosts);
    }
}
