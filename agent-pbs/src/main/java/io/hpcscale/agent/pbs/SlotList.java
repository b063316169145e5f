package io.hpcscale.agent.pbs;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Names with a slot after a slash, as PBS lists them: a job's {@code exec_host} ({@code cn001/0+cn002/0}, two chunks
 * on one node {@code cn003/0+cn003/1}, older servers {@code node/0*4}) and a node's {@code jobs}
 * ({@code 110700.pbsserver/3}, or without the slot in 23.06).
 */
final class SlotList {
    private SlotList() {
    }

    /** The hosts an {@code exec_host} names, each once, in order; none for a job that has not started. */
    static List<String> execHosts(String execHost) {
        return execHost == null ? List.of() : withoutSlots(Arrays.asList(execHost.split("\\+")));
    }

    /** Each name without its slot, once, in order; blank ones left out. */
    static List<String> withoutSlots(Collection<String> entries) {
        Set<String> names = new LinkedHashSet<>();
        for (String entry : entries) {
            String trimmed = entry.strip();
            int slash = trimmed.indexOf('/');
            String name = slash < 0 ? trimmed : trimmed.substring(0, slash);
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return List.copyOf(names);
    }
}
