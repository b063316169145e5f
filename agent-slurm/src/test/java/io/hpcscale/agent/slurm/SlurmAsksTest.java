package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpcscale.common.agent.JobAsks;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a Slurm job asks beyond CPUs, memory and GPUs, as sbatch's options write it (Slurm 22.05 squeue). */
class SlurmAsksTest {

    @Test
    void featuresAreBooleanResourcesJoinedAsTheConstraintJoinsThem() {
        assertEquals("[{\"ib\":true}]", SlurmAsks.of("ib", null, null).constraints());
        assertEquals("[{\"and\":[{\"ib\":true},{\"or\":[{\"hbv3\":true},{\"hbv4\":true}]}]}]",
                SlurmAsks.of("ib&(hbv3|hbv4)", null, null).constraints());
        assertEquals("[{\"or\":[{\"rack1\":true},{\"rack2\":true}]}]",
                SlurmAsks.of("[rack1|rack2]", null, null).constraints(), "brackets: one of them for all nodes");
        assertEquals("[{\"and\":[{\"ib\":true},{\"gpu\":true}]}]", SlurmAsks.of("ib*2,gpu", null, null).constraints(),
                "a count is the feature alone; a comma is and");
        assertEquals("[{\"not\":{\"old\":true}}]", SlurmAsks.of("!old", null, null).constraints());
        assertEquals("[{\"never\":\"the Slurm constraint 'ib&(hbv3' lacks a ')'\"}]",
                SlurmAsks.of("ib&(hbv3", null, null).constraints(), "the job stays readable and matches no pool");
    }

    @Test
    void gresOtherThanAGpuCountAreConstraints() {
        assertNull(SlurmAsks.of(null, "gres:gpu:2", null).constraints(), "a GPU count is the chunk's");
        assertEquals("[{\"gpu_type\":\"a100\"}]", SlurmAsks.of(null, "gres:gpu:a100:2", null).constraints());
        assertEquals("[{\"nvme\":1}]", SlurmAsks.of(null, "gres/nvme:1", null).constraints());
        assertEquals("[{\"ib\":true},{\"gpu_type\":\"h100\"}]",
                SlurmAsks.of("ib", "gres:gpu:h100:4", null).constraints());
    }

    @Test
    void licencesAreSharedCountsOneWhenNoneIsGiven() {
        JobAsks asks = SlurmAsks.of(null, null, "matlab:2,abaqus");
        assertEquals(Map.of("matlab", 2L, "abaqus", 1L), asks.shared());
        assertNull(asks.constraints());
        assertEquals(Map.of(), SlurmAsks.of(null, null, null).shared());
        assertEquals(Map.of(), SlurmAsks.of(null, null, "matlab:1|octave:1").shared(), "which one is not known");
    }
}
