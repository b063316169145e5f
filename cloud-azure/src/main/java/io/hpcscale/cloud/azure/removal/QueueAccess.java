package io.hpcscale.cloud.azure.removal;

import java.net.URI;

/**
 * Where the removal queue is and how to sign in to it: an Entra ID identity with the queue's URL, or a connection
 * string.
 */
public sealed interface QueueAccess permits QueueAccess.WithIdentity, QueueAccess.WithConnectionString {
    String POISON_SUFFIX = "-poison";

    /** The queue's name; its poison queue is this with {@link #POISON_SUFFIX}. */
    String queue();

    /** The queue's URL, {@code https://<account>.queue.core.windows.net/<queue>}, signed in to with a token. */
    record WithIdentity(URI queueUrl) implements QueueAccess {
        @Override
        public String queue() {
            String path = queueUrl.getPath();
            return path.substring(path.lastIndexOf('/') + 1);
        }

        /** The service's URL: the queue's without the queue. */
        public String serviceUrl() {
            String url = queueUrl.toString();
            return url.substring(0, url.lastIndexOf('/'));
        }
    }

    /** A connection string, which names the account and holds its key or a SAS, and the queue's name. */
    record WithConnectionString(ConnectionStringSecret connectionString, String queue) implements QueueAccess {
    }
}
