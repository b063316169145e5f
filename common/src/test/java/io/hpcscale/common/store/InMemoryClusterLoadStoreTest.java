package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpcscale.common.model.DocumentType;
import java.time.Clock;
import org.junit.jupiter.api.Test;

class InMemoryClusterLoadStoreTest extends ClusterLoadStoreContract {

    @Override
    protected ClusterLoadStore newStore(Clock clock) {
        return new InMemoryClusterLoadStore(clock);
    }

    @Test
    void failsEveryCallWhileSwitchedOff() {
        InMemoryClusterLoadStore memory = (InMemoryClusterLoadStore) store;
        memory.setAvailable(false);
        assertThrows(StoreException.class, () -> memory.queryByType(DocumentType.JOBS));
        memory.setAvailable(true);
        memory.queryByType(DocumentType.JOBS);
    }
}
