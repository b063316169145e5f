package io.hpcscale.scaler.pool;

/** Which queued jobs of a pool count as demand ({@code pool.<name>.demand}). */
public enum DemandModel {
    /** Every queued job that fits the pool. */
    QUEUED("queued"),
    /**
     * Only those the scheduler's EASY backfilling would start now with every node of the pool up: a job held behind
     * another's reservation keeps no free node and starts none.
     */
    BACKFILL("backfill");

    private final String setting;

    DemandModel(String setting) {
        this.setting = setting;
    }

    public String setting() {
        return setting;
    }

    public static DemandModel fromSetting(String value) {
        for (DemandModel model : values()) {
            if (model.setting.equals(value)) {
                return model;
            }
        }
        throw new IllegalArgumentException("no demand model " + value);
    }
}
