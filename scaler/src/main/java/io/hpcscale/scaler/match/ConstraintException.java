package io.hpcscale.scaler.match;

/** A constraint that cannot be read: the message says where in its JSON and what to write instead. */
public final class ConstraintException extends Exception {
    public ConstraintException(String message) {
        super(message);
    }
}
