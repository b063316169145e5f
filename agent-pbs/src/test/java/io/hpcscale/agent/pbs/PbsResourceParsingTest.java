package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.Placement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PbsResourceParsingTest {
    private static final SelectSpec.Totals NONE = new SelectSpec.Totals(null, null, null);

    @ParameterizedTest
    @CsvSource({"32gb,32768", "65842092kb,64299", "1tb,1048576", "1024mb,1024", "1048576b,1", "1048577,2",
            "4GB,4096", "1mw,8", "0kb,0"})
    void readsSizesInEveryUnit(String text, long mebibytes) {
        assertEquals(mebibytes, PbsSize.toMebibytes(text));
    }

    @Test
    void refusesWhatIsNotASize() {
        assertThrows(IllegalArgumentException.class, () -> PbsSize.toMebibytes("lots"));
        assertThrows(IllegalArgumentException.class, () -> PbsSize.toMebibytes("4g"));
    }

    @Test
    void readsMultiChunkSelects() {
        assertEquals(List.of(new Chunk(2, 16, 32768, 0), new Chunk(1, 8, 0, 0)),
                SelectSpec.chunks("2:ncpus=16:mem=32gb+1:ncpus=8", NONE));
    }

    @Test
    void readsGpusAndIgnoresOtherResources() {
        assertEquals(List.of(new Chunk(1, 12, 204800, 2)),
                SelectSpec.chunks("1:ncpus=12:ngpus=2:mem=200gb:mpiprocs=12:model=hb120", NONE));
    }

    @Test
    void aBareCountTakesItsCpusFromTheJobTotal() {
        assertEquals(List.of(new Chunk(40, 208, 0, 0)),
                SelectSpec.chunks("40", new SelectSpec.Totals(8320L, null, null)));
    }

    @Test
    void chunksWithoutCpusShareWhatTheNamedOnesLeave() {
        assertEquals(List.of(new Chunk(1, 8, 0, 0), new Chunk(2, 16, 1024, 0)),
                SelectSpec.chunks("1:ncpus=8+2:mem=1gb", new SelectSpec.Totals(40L, null, null)));
    }

    @Test
    void aChunkWithoutCountIsOneChunkAndNeedsAtLeastOneCpu() {
        assertEquals(List.of(new Chunk(1, 1, 2048, 0)), SelectSpec.chunks("mem=2gb", NONE));
    }

    @Test
    void withoutSelectTheNodeCountSharesTheTotals() {
        assertEquals(List.of(new Chunk(2, 8, 0, 0)), SelectSpec.fromTotals(2, new SelectSpec.Totals(16L, null, null)));
    }

    @Test
    void refusesSelectsItCannotRead() {
        assertThrows(IllegalArgumentException.class, () -> SelectSpec.chunks("2:ncpus=many", NONE));
        assertThrows(IllegalArgumentException.class, () -> SelectSpec.chunks("2:ncpus", NONE));
        assertThrows(IllegalArgumentException.class, () -> SelectSpec.chunks("0:ncpus=2", NONE));
        assertThrows(IllegalArgumentException.class, () -> SelectSpec.chunks("1:ncpus=2+", NONE));
    }

    @Test
    void readsPlacementAndSharing() {
        assertEquals(new PbsPlace(Placement.scatter, PbsPlace.Sharing.EXCLUSIVE), PbsPlace.parse("scatter:excl"));
        assertEquals(new PbsPlace(Placement.scatter, PbsPlace.Sharing.UNSAID), PbsPlace.parse("vscatter"));
        assertEquals(new PbsPlace(Placement.pack, PbsPlace.Sharing.EXCLUSIVE), PbsPlace.parse("pack:exclhost"));
        assertEquals(new PbsPlace(Placement.free, PbsPlace.Sharing.SHARED), PbsPlace.parse("free:shared:group=rack"));
        assertEquals(new PbsPlace(Placement.free, PbsPlace.Sharing.UNSAID), PbsPlace.parse(null));
    }
}
