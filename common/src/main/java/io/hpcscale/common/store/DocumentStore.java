package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentCodec;
import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Typed access to the store. A stored document that does not follow the contract is skipped with one log line
 * naming it and the field at fault; it never fails the caller's cycle.
 */
public final class DocumentStore {
    private static final Logger log = LoggerFactory.getLogger(DocumentStore.class);

    /** Documents encoded and handed to the store at once: a few megabytes of JSON trees. */
    private static final int WRITE_BATCH = 1_000;

    /** Decoded versions kept: enough for every job and node of a large cluster, bounded all the same. */
    private static final int CACHED_VERSIONS = 400_000;

    private final ClusterLoadStore store;
    private final DocumentCodec codec = new DocumentCodec();
    private final OncePerKey reportedInvalid = new OncePerKey();
    /**
     * Decoded documents by ETag. An ETag names one version of one document, so its decoding never changes; a cycle
     * that reads thousands of unchanged documents then decodes only the ones written since. Only the latest version
     * decoded of each document is kept ({@link #etagByKey}): readers read documents as they are now, never an older
     * version again, and keeping every version until the bound filled held 2 GB in a replay of the simulator, where the
     * scaler's state of a 256-node pool changes most cycles.
     */
    private final Map<String, ClusterLoadDocument> decoded = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ClusterLoadDocument> eldest) {
            if (size() <= CACHED_VERSIONS) {
                return false;
            }
            etagByKey.remove(eldest.getValue().key(), eldest.getKey());
            return true;
        }
    };
    /** The ETag of the version of each document that {@link #decoded} holds. */
    private final Map<DocumentKey, String> etagByKey = new HashMap<>();

    public DocumentStore(ClusterLoadStore store) {
        this.store = store;
    }

    /** A typed document with the ETag of the version it was read from. */
    public record Versioned<T extends ClusterLoadDocument>(T document, String etag) {
    }

    public <T extends ClusterLoadDocument> List<T> all(DocumentType type, Class<T> documentClass) {
        return decodeAll(store.queryByType(type), documentClass);
    }

    public <T extends ClusterLoadDocument> List<T> inPool(DocumentType type, String pool, Class<T> documentClass) {
        return decodeAll(store.query(type, pool), documentClass);
    }

    /** One pool's documents of these types with the ETags they were read at, for writes conditional on them. */
    public List<Versioned<ClusterLoadDocument>> versionedInPool(String pool, Set<DocumentType> types) {
        return versioned(store.queryPool(pool, types));
    }

    /** Documents read some other way, typed, with their ETags; those that do not follow the contract are skipped. */
    public List<Versioned<ClusterLoadDocument>> versioned(List<StoredDocument> read) {
        List<Versioned<ClusterLoadDocument>> result = new ArrayList<>();
        for (StoredDocument stored : read) {
            decode(stored, ClusterLoadDocument.class).ifPresent(document -> result.add(new Versioned<>(document,
                    stored.etag())));
        }
        return result;
    }

    /** One pool's documents of these types, read in one query; those that do not follow the contract are skipped. */
    public List<ClusterLoadDocument> inPool(String pool, Set<DocumentType> types) {
        return decodeAll(store.queryPool(pool, types), ClusterLoadDocument.class);
    }

    /** Documents read some other way, typed; those that do not follow the contract are skipped. */
    public List<ClusterLoadDocument> decode(List<StoredDocument> stored) {
        return decodeAll(stored, ClusterLoadDocument.class);
    }

    public <T extends ClusterLoadDocument> Optional<Versioned<T>> read(DocumentKey key, Class<T> documentClass) {
        return store.read(key).flatMap(stored -> decode(stored, documentClass)
                .map(document -> new Versioned<>(document, stored.etag())));
    }

    /**
     * Writes the documents a batch at a time, as the store's contract allows: encoding the 110,000 documents of a
     * first agent cycle at 100,000 jobs all at once took 170 MB of JSON trees.
     */
    public void upsert(Collection<? extends ClusterLoadDocument> documents) {
        List<ObjectNode> batch = new ArrayList<>(Math.min(documents.size(), WRITE_BATCH));
        for (ClusterLoadDocument document : documents) {
            batch.add(codec.encode(document));
            if (batch.size() == WRITE_BATCH) {
                store.upsertAll(batch);
                batch = new ArrayList<>(WRITE_BATCH);
            }
        }
        if (!batch.isEmpty()) {
            store.upsertAll(batch);
        }
    }

    /**
     * Replaces the document only if it is still the version read.
     *
     * @return the new ETag
     * @throws EtagConflictException if it changed or vanished since
     */
    public String replaceIfMatch(ClusterLoadDocument document, String expectedEtag) {
        return store.replaceIfMatch(codec.encode(document), expectedEtag);
    }

    public void delete(Collection<DocumentKey> keys) {
        store.deleteAll(keys);
    }

    public ClusterLoadStore store() {
        return store;
    }

    public DocumentCodec codec() {
        return codec;
    }

    /**
     * Decodes the documents of one query, letting go of each as it is decoded: a stored document keeps the JSON tree
     * it was parsed into, and the agent's first read of 110,000 documents held 130 MB of trees until the last one.
     */
    private <T extends ClusterLoadDocument> List<T> decodeAll(List<StoredDocument> stored, Class<T> documentClass) {
        StoredDocument[] documents = stored.toArray(new StoredDocument[0]);
        stored = null;
        List<T> result = new ArrayList<>(documents.length);
        for (int i = 0; i < documents.length; i++) {
            decode(documents[i], documentClass).ifPresent(result::add);
            documents[i] = null;
        }
        return result;
    }

    private <T extends ClusterLoadDocument> Optional<T> decode(StoredDocument stored, Class<T> documentClass) {
        ClusterLoadDocument known;
        synchronized (decoded) {
            known = decoded.get(stored.etag());
        }
        if (documentClass.isInstance(known)) {
            return Optional.of(documentClass.cast(known));
        }
        try {
            T document = codec.decode(stored.json(), documentClass);
            synchronized (decoded) {
                String older = etagByKey.put(document.key(), stored.etag());
                if (older != null && !older.equals(stored.etag())) {
                    decoded.remove(older);
                }
                decoded.put(stored.etag(), document);
            }
            return Optional.of(document);
        } catch (DocumentFormatException e) {
            if (reportedInvalid.first(stored.etag())) {
                log.warn("skipping an invalid document in {}: {}", store.describe(), e.getMessage());
            }
            return Optional.empty();
        }
    }
}
