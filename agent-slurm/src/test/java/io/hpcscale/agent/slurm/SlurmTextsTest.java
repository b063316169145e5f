package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SlurmTextsTest {

    @Test
    void expandsHostlists() {
        assertEquals(List.of("node1", "node2", "node5", "cnode3"), Hostlists.expand("node[1-2,5],cnode3"));
        assertEquals(List.of("gpu01-ib", "gpu02-ib"), Hostlists.expand("gpu[01-02]-ib"));
        assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2"), Hostlists.expand("r[1-2]n[1-2]"));
        assertEquals(List.of(), Hostlists.expand(""));
        assertThrows(IllegalArgumentException.class, () -> Hostlists.expand("node[1-"));
        assertThrows(IllegalArgumentException.class, () -> Hostlists.expand("node[5-1]"));
    }

    @Test
    void expandsPendingArrayTasksIgnoringTheThrottle() {
        assertEquals(List.of(4L, 5L, 6L), ArrayTasks.expand("4-6%4", 100));
        assertEquals(List.of(1L, 3L, 5L, 15L), ArrayTasks.expand("1-5:2,15", 100));
        assertEquals(List.of(1L, 2L), ArrayTasks.expand("1-100000", 2));
    }

    @Test
    void readsGpusAndMemory() {
        assertEquals(2, SlurmResources.gpus("gres:gpu:2"));
        assertEquals(4, SlurmResources.gpus("gpu:a100:4(S:0-1)"));
        assertEquals(3, SlurmResources.gpus("gres/gpu:1,mps:100,gpu:2"));
        assertEquals(0, SlurmResources.gpus("(null)"));
        assertEquals(500, SlurmResources.megabytes("500M"));
        assertEquals(4096, SlurmResources.megabytes("4G"));
        assertEquals(2000, SlurmResources.megabytes("2000"));
    }
}
