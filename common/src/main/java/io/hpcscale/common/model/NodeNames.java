package io.hpcscale.common.model;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How a cloud's name for a node's machine is matched with the scheduler's name for the node: without case and
 * without a domain. Azure writes Uniform computer names in upper case ({@code PINTA007Y00002D}); schedulers often
 * know the host in lower case, sometimes fully qualified. Documents keep the scheduler's own spelling, which is the
 * one its commands accept.
 */
public final class NodeNames {
    private NodeNames() {
    }

    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

    /**
     * Whether a name may be given to a scheduler command: a host name, nothing a command could read as an option
     * (a leading '-'), a list or range (',' or '[1-99]' in Slurm's hostlists), or a second argument.
     */
    public static boolean isHostName(String name) {
        return name != null && HOST_NAME.matcher(name).matches();
    }

    /** The key two names of one node share: lower case, the host part only. */
    public static String key(String name) {
        int dot = name.indexOf('.');
        return (dot > 0 ? name.substring(0, dot) : name).toLowerCase(Locale.ROOT);
    }
}
