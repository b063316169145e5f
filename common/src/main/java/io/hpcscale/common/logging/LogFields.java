package io.hpcscale.common.logging;

/**
 * Names of the key-value pairs attached to decision lines. The text format leaves them out (the message already
 * says it all); the json format writes them as fields, which log shippers index, so they are part of the product.
 */
public final class LogFields {
    public static final String POOL = "pool";
    /** One instance, or several separated by commas when one decision covers them all. */
    public static final String INSTANCE = "instance";
    public static final String NODE = "node";
    public static final String ACTION = "action";
    public static final String REASON = "reason";
    public static final String OUTCOME = "outcome";

    private LogFields() {
    }
}
