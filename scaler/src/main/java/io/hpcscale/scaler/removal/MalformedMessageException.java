package io.hpcscale.scaler.removal;

/** A queue message that is not a removal request this scaler can read; the message says why, for the poison queue. */
public final class MalformedMessageException extends Exception {
    public MalformedMessageException(String reason) {
        super(reason);
    }
}
