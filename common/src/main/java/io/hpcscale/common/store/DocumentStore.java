package io.hpcscale.common.store;

import io.hpcscale.common.codec.DocumentCodec;
import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.util.ArrayList;
import java.util.Collection;
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

    /** Decoded versions kept: enough for every job and node of a large cluster, bounded all the same. */
    private static final int CACHED_VERSIONS = 400_000;

    private final ClusterLoadStore store;
    private final DocumentCodec codec = new DocumentCodec();
    private final OncePerKey reportedInvalid = new OncePerKey();
    /**
     * Decoded documents by ETag. An ETag names one version of one document, so its decoding never changes; a cycle
     * that reads thousands of unchanged documents then decodes only the ones written since.
     */
    private final Map<String, ClusterLoadDocument> decoded = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ClusterLoadDocument> eldest) {
            return size() > CACHED_VERSIONS;
        }
    };

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

    /** One pool's documents of these types, read in one query; those that do not follow the contract are skipped. */
    public List<ClusterLoadDocument> inPool(String pool, Set<DocumentType> types) {
        return decodeAll(store.queryPool(pool, types), ClusterLoadDocument.class);
    }

    public <T extends ClusterLoadDocument> Optional<Versioned<T>> read(DocumentKey key, Class<T> documentClass) {
        return store.read(key).flatMap(stored -> decode(stored, documentClass)
                .map(document -> new Versioned<>(document, stored.etag())));
    }

    public void upsert(Collection<? extends ClusterLoadDocument> documents) {
        store.upsertAll(documents.stream().map(codec::encode).toList());
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

    private <T extends ClusterLoadDocument> List<T> decodeAll(List<StoredDocument> stored, Class<T> documentClass) {
        List<T> result = new ArrayList<>(stored.size());
        for (StoredDocument document : stored) {
            decode(document, documentClass).ifPresent(result::add);
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
