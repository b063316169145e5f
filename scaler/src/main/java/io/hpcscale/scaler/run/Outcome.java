package io.hpcscale.scaler.run;

import io.hpcscale.common.secrets.Redactor;
import java.util.Objects;

/**
 * How an action or refusal ended, as recorded in events: {@code ok}, {@code dry-run}, {@code refused},
 * {@code refused: <why>} (a re-check just before the call said no), {@code failed: <why>}, or
 * {@code unfinished: <why>} (the cloud accepted the call, and the scaler stopped waiting for it to end).
 */
public record Outcome(Type type, String detail) {
    public enum Type {
        OK("ok"),
        DRY_RUN("dry-run"),
        REFUSED("refused"),
        FAILED("failed"),
        /** Accepted by the cloud but not ended when the scaler stopped waiting; the next listing settles it. */
        UNFINISHED("unfinished");

        private final String wireName;

        Type(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    public static final Outcome OK = new Outcome(Type.OK, null);
    public static final Outcome DRY_RUN = new Outcome(Type.DRY_RUN, null);
    public static final Outcome REFUSED = new Outcome(Type.REFUSED, null);

    public Outcome {
        Objects.requireNonNull(type, "type");
        detail = Redactor.text(detail);
    }

    public static Outcome failed(String why) {
        return new Outcome(Type.FAILED, why);
    }

    public static Outcome unfinished(String why) {
        return new Outcome(Type.UNFINISHED, why);
    }

    public static Outcome refused(String why) {
        return new Outcome(Type.REFUSED, why);
    }

    public boolean ok() {
        return type == Type.OK;
    }

    public boolean failed() {
        return type == Type.FAILED;
    }

    /** As written in events documents and log lines. */
    public String wire() {
        return detail == null ? type.wireName : type.wireName + ": " + detail;
    }

    @Override
    public String toString() {
        return wire();
    }
}
