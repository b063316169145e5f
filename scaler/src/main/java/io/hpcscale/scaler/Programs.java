package io.hpcscale.scaler;

import io.hpcscale.common.config.Program;

/** The scaler as a program that reads the properties file: the name its required keys are required by. */
public final class Programs {
    public static final Program SCALER = new Program("hpcscale-scaler", "The hpcscale scaler: plans each pool from "
            + "the ClusterLoad store and starts or stops instances through the pool's cloud provider.");

    private Programs() {
    }
}
