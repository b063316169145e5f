package io.hpcscale.common.store;

/** The store could not be reached or failed; the message names the store and what to check. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
