package io.hpcscale.common.model;

/** Why hpcscale stopped (or found stopped) an instance: each kind is re-checked differently before a stop. */
public enum StopKind {
    /** The drain handshake is complete: offline in the scheduler, running no job. */
    DRAINED,
    /** Its node never reported to the scheduler within the boot timeout: a failed boot. */
    BOOT_FAILURE,
    /** Slurm's power saving suspended its node, which runs no job. */
    POWER_SAVING
}
