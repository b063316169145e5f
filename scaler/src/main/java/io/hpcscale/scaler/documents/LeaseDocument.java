package io.hpcscale.scaler.documents;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.time.Instant;
import java.util.Objects;

/**
 * Which scaler may act: the one named here, until {@code expiresAt}. It is created, renewed and taken over only with
 * ETag-conditional writes, so two scalers can never both believe they renewed it.
 *
 * @param holder    host and process of the scaler holding it, e.g. {@code manager1:4242}; empty once released
 * @param bootId    the holder host's kernel boot id: a scaler restarted on the same host can tell that the holder's
 *                  process is gone, rather than wait for the lease to expire
 * @param renewedAt when the holder last renewed it, by its clock
 * @param expiresAt when another scaler may take it over if it was not renewed
 */
public record LeaseDocument(String holder, String host, long pid, String bootId, Instant renewedAt,
        Instant expiresAt) implements ClusterLoadDocument {
    public static final String ID = "scaler-lease";
    public static final DocumentKey KEY = new DocumentKey(META_POOL, ID);

    public LeaseDocument {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String poolName() {
        return META_POOL;
    }

    @Override
    public DocumentType type() {
        return DocumentType.LEASE;
    }

    public boolean released() {
        return holder.isEmpty();
    }
}
