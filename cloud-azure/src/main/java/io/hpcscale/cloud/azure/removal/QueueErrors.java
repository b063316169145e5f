package io.hpcscale.cloud.azure.removal;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.storage.queue.models.QueueErrorCode;
import com.azure.storage.queue.models.QueueStorageException;
import io.hpcscale.scaler.removal.RemovalQueueException.Failure;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import io.hpcscale.scaler.removal.RemovalQueueException;

/**
 * Turns what the storage SDK throws into {@link RemovalQueueException}s that say what was asked, what came back
 * and what to do. Every text taken from the SDK goes through the redaction first: with a connection string, the SDK
 * may repeat its SAS.
 */
final class QueueErrors {
    private final String queue;
    private final boolean signedInWithToken;
    private final UnaryOperator<String> redact;

    /**
     * @param queue             the queue as messages name it, e.g. "queue q of storage account a"
     * @param signedInWithToken an Entra ID identity rather than a key or SAS, for what a refusal means
     */
    QueueErrors(String queue, boolean signedInWithToken, UnaryOperator<String> redact) {
        this.queue = queue;
        this.signedInWithToken = signedInWithToken;
        this.redact = redact;
    }

    /** @param asked what was being done, e.g. "receive messages", completed with "from <the queue>" */
    RemovalQueueException map(String asked, RuntimeException failure) {
        String cannot = "cannot " + asked + " " + queue + ": ";
        QueueStorageException storage = cause(failure, QueueStorageException.class);
        if (storage != null) {
            return storage(cannot, storage);
        }
        ClientAuthenticationException auth = cause(failure, ClientAuthenticationException.class);
        if (auth != null) {
            return new RemovalQueueException(Failure.DENIED, cannot + "signing in to Azure failed"
                    + detail(auth.getMessage()) + "; on an Azure VM give it a managed identity, or use a connection "
                    + "string file");
        }
        Throwable cause = cause(failure, IOException.class);
        if (cause == null) {
            cause = cause(failure, TimeoutException.class);
        }
        if (cause != null) {
            return new RemovalQueueException(Failure.UNREACHABLE, cannot + "the queue service cannot be reached, "
                    + "even after retries: " + cause.getClass().getSimpleName() + detail(cause.getMessage()));
        }
        return new RemovalQueueException(Failure.UNAVAILABLE, cannot + "the storage client failed: "
                + failure.getClass().getSimpleName() + detail(failure.getMessage()));
    }

    /** Whether a delete failed only because the message is no longer this receipt's: gone, or received again. */
    static boolean notOursAnymore(RuntimeException failure) {
        return is(failure, QueueErrorCode.MESSAGE_NOT_FOUND) || is(failure, QueueErrorCode.POP_RECEIPT_MISMATCH);
    }

    /** Whether the service answered with this error code. */
    static boolean is(RuntimeException failure, QueueErrorCode code) {
        QueueStorageException storage = cause(failure, QueueStorageException.class);
        return storage != null && code.equals(storage.getErrorCode());
    }

    /** The failure itself or its first cause of the kind: the SDK's blocking calls wrap what they throw. */
    private static <T extends Throwable> T cause(Throwable failure, Class<T> kind) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return kind.cast(t);
            }
        }
        return null;
    }

    private RemovalQueueException storage(String cannot, QueueStorageException e) {
        int status = e.getStatusCode();
        String answer = status + (e.getErrorCode() == null ? "" : " " + e.getErrorCode());
        if (QueueErrorCode.QUEUE_NOT_FOUND.equals(e.getErrorCode())) {
            return new RemovalQueueException(Failure.QUEUE_MISSING, cannot + "the queue does not exist (" + answer
                    + "): create it (az storage queue create --name <queue> --account-name <account> --auth-mode "
                    + "login), or correct the queue's name");
        }
        if (status == 401 || status == 403) {
            return new RemovalQueueException(Failure.DENIED, cannot + (signedInWithToken
                    ? "the identity may not do this (" + answer + "): give it Storage Queue Data Message Sender on the "
                            + "queue to send, or Storage Queue Data Contributor on the storage account to receive and "
                            + "set aside"
                    : "the storage account refused the connection string (" + answer + "): check its key or SAS is "
                            + "current and allows this (keys may have been rotated)"));
        }
        if (status == 429 || QueueErrorCode.SERVER_BUSY.equals(e.getErrorCode())) {
            return new RemovalQueueException(Failure.THROTTLED, cannot + "the queue service asks to slow down ("
                    + answer + "), even after retries; try again later");
        }
        if (status >= 500) {
            return new RemovalQueueException(Failure.UNAVAILABLE, cannot + "the queue service failed (" + answer
                    + "), even after retries");
        }
        return new RemovalQueueException(Failure.REFUSED, cannot + "the queue service refused it (" + answer + ")"
                + detail(e.getServiceMessage()));
    }

    /** ": " and the text's first line, redacted and cut short; nothing when there is no text. */
    private String detail(String text) {
        if (text == null || text.isBlank()) {
            return "";
        }
        // Redacted before it is cut, so that no part of a secret survives the cut.
        String line = redact.apply(text.strip()).lines().findFirst().orElse("");
        return ": " + (line.length() > 300 ? line.substring(0, 300) + "..." : line);
    }
}
