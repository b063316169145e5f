package io.hpcscale.common.codec;

/** A stored document does not follow the ClusterLoad contract; the message names the document and the field. */
public class DocumentFormatException extends RuntimeException {
    public DocumentFormatException(String message) {
        super(message);
    }
}
