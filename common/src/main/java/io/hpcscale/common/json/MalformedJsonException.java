package io.hpcscale.common.json;

/** The text is not JSON in a way that cannot be isolated to one entry; the message gives the byte offset. */
public class MalformedJsonException extends Exception {
    public MalformedJsonException(String message) {
        super(message);
    }
}
