package io.hpcscale.agent.slurm;

import java.util.List;
import java.util.Set;

/** What one of the readers made of squeue's or sinfo's output: the entries it could read and those it could not. */
record SlurmReadResult<T>(List<T> entries, Set<String> unreadable) {
    SlurmReadResult {
        entries = List.copyOf(entries);
        unreadable = Set.copyOf(unreadable);
    }
}
