package io.hpcscale.simulator.soak;

/** What SIGKILL does to a thread: it ends it where it stands, past every catch of an exception. */
final class Killed extends Error {
    Killed(String where) {
        super("killed at " + where);
    }
}
