package io.hpcscale.agent.pbs;

import io.hpcscale.common.model.Placement;
import java.util.Locale;

/**
 * The {@code place} statement: {@code [arrangement][:sharing][:grouping]}, e.g. {@code scatter:excl}.
 *
 * @param sharing {@code EXCLUSIVE} for excl/exclhost, {@code SHARED} for shared, {@code UNSAID} when the job leaves it
 *                to the node's default
 */
record PbsPlace(Placement placement, Sharing sharing) {

    enum Sharing {
        EXCLUSIVE,
        SHARED,
        UNSAID
    }

    static PbsPlace parse(String text) {
        Placement placement = Placement.free;
        Sharing sharing = Sharing.UNSAID;
        if (text == null) {
            return new PbsPlace(placement, sharing);
        }
        for (String part : text.toLowerCase(Locale.ROOT).split(":")) {
            switch (part.trim()) {
                case "pack" -> placement = Placement.pack;
                case "scatter", "vscatter" -> placement = Placement.scatter;
                case "free" -> placement = Placement.free;
                case "excl", "exclhost" -> sharing = Sharing.EXCLUSIVE;
                case "shared" -> sharing = Sharing.SHARED;
                default -> {
                    // group=<resource> and unknown words do not change how many nodes a job needs.
                }
            }
        }
        return new PbsPlace(placement, sharing);
    }
}
