package io.hpcscale.common.store;

import io.hpcscale.common.model.DocumentKey;
import java.util.List;

/**
 * What changed in one pool's partition since a position an earlier answer gave.
 *
 * @param documents the documents written since (all of them when {@code whole})
 * @param deleted   the documents deleted since; empty when {@code whole}
 * @param position  where the next read goes on from: pass it to {@link ClusterLoadStore#changesSince}
 * @param whole     whether {@code documents} are all the pool's documents of the types asked, so that anything a
 *                  reader holds and does not find among them is gone
 */
public record PoolChanges(List<StoredDocument> documents, List<DocumentKey> deleted, long position, boolean whole) {
    /** The position that asks for every document. */
    public static final long START = 0;

    public PoolChanges {
        documents = List.copyOf(documents);
        deleted = List.copyOf(deleted);
    }

    public static PoolChanges whole(List<StoredDocument> documents, long position) {
        return new PoolChanges(documents, List.of(), position, true);
    }
}
