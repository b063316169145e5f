package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DocumentStoreTest {

    /** Notes how many documents each write hands to the store. */
    private static final class Batches extends ForwardingClusterLoadStore {
        final List<Integer> sizes = new ArrayList<>();

        Batches(ClusterLoadStore delegate) {
            super(delegate);
        }

        @Override
        public void upsertAll(Collection<ObjectNode> documents) {
            sizes.add(documents.size());
            super.upsertAll(documents);
        }
    }

    @Test
    void writesManyDocumentsABatchAtATimeSoTheirEncodingsAreNeverAllHeld() {
        Batches store = new Batches(new InMemoryClusterLoadStore(Clock.systemUTC()));
        List<DrainDocument> drains = IntStream.range(0, 2_500)
                .mapToObj(i -> DrainDocument.request("pool", "node" + i, "idle", Instant.EPOCH)).toList();
        new DocumentStore(store).upsert(drains);
        assertEquals(List.of(1_000, 1_000, 500), store.sizes);
        assertEquals(2_500, store.queryByType(DocumentType.DRAINS).size());
    }

    @Test
    void writesOneDocumentInOneCall() {
        Batches store = new Batches(new InMemoryClusterLoadStore(Clock.systemUTC()));
        new DocumentStore(store).upsert(List.of(DrainDocument.request("pool", "node1", "idle", Instant.EPOCH)));
        assertEquals(List.of(1), store.sizes);
    }

    @Test
    void decodesAVersionOnceAndLetsGoOfItWhenANewerVersionOfTheDocumentIsDecoded() {
        DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(Clock.systemUTC()));
        ObjectNode first = documents.codec().encode(DrainDocument.request("pool", "node1", "idle", Instant.EPOCH));
        ObjectNode second = documents.codec().encode(DrainDocument.request("pool", "node1", "idle",
                Instant.EPOCH.plusSeconds(60)));
        int[] parsed = new int[1];
        StoredDocument firstRead = StoredDocument.lazy(() -> {
            parsed[0]++;
            return first;
        }, "\"1\"");
        StoredDocument secondRead = StoredDocument.lazy(() -> second, "\"2\"");

        documents.decode(List.of(firstRead));
        documents.decode(List.of(firstRead));
        assertEquals(1, parsed[0], "a version already decoded is not parsed again");

        documents.decode(List.of(secondRead));
        StoredDocument firstAgain = StoredDocument.lazy(() -> {
            parsed[0]++;
            return first;
        }, "\"1\"");
        documents.decode(List.of(firstAgain));
        assertEquals(2, parsed[0], "the older version was let go once the newer one was decoded");
    }
}
