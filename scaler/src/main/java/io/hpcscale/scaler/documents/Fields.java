package io.hpcscale.scaler.documents;

/** Field names of the scaler's own documents, in the ClusterLoad contract's spelling. */
final class Fields {
    static final String ACTION = "Action";
    static final String AT = "At";
    static final String BACKOFF_REASON = "BackoffReason";
    static final String BACKOFF_UNTIL = "BackoffUntil";
    static final String BOOTING = "Booting";
    static final String BOOT_ID = "BootId";
    static final String BUSY_SECONDS = "BusySeconds";
    static final String CAPACITY = "Capacity";
    static final String CONSECUTIVE_BOOT_FAILURES = "ConsecutiveBootFailures";
    static final String COUNT = "Count";
    static final String COUNT_FROM = "CountFrom";
    static final String COUNT_TO = "CountTo";
    static final String DAY = "Day";
    static final String EVICTIONS = "Evictions";
    static final String EVICTION_ROUNDS = "EvictionRounds";
    static final String EXPIRES_AT = "ExpiresAt";
    static final String GROWING = "Growing";
    static final String GANGS = "Gangs";
    static final String BOOT_HEALTH = "BootHealth";
    static final String FAILED_IN_A_ROW = "FailedInARow";
    static final String RECENT_FAILURES = "RecentFailures";
    static final String PROTECTED_SINCE = "ProtectedSince";
    static final String IDLE_LEARNING = "IdleLearning";
    static final String LAST_ARRIVAL_AT = "LastArrivalAt";
    static final String ARRIVAL_GAPS = "ArrivalGapSeconds";
    static final String BOOT_SECONDS = "BootSeconds";
    static final String NODES = "Nodes";
    static final String GIVEN_BACK_AT = "GivenBackAt";
    static final String GROWN_AT = "GrownAt";
    static final String HOLDER = "Holder";
    static final String HOST = "Host";
    static final String INSTANCES = "Instances";
    static final String INSTANCE_SECONDS = "InstanceSeconds";
    static final String LAST_ACTION = "LastAction";
    static final String LAST_ACTIVE = "LastActive";
    static final String LAST_BUSY = "LastBusy";
    static final String LAST_SAMPLE_AT = "LastSampleAt";
    static final String LOWERED = "Lowered";
    static final String OUTCOME = "Outcome";
    static final String PENDING = "Pending";
    static final String PENDING_CREATE = "PendingCreate";
    static final String PID = "Pid";
    static final String REASON = "Reason";
    static final String REMOVALS = "Removals";
    static final String RENEWED_AT = "RenewedAt";
    static final String REQUESTED_BY = "RequestedBy";
    static final String SEALED_SCALE_SETS = "SealedScaleSets";
    static final String SET_AT = "SetAt";
    static final String SET_BY = "SetBy";
    static final String STARTED_AT = "StartedAt";
    static final String START_REASON = "StartReason";
    static final String STOPPED_AT = "StoppedAt";
    static final String STOP_KIND = "StopKind";
    static final String STOP_REASON = "StopReason";
    static final String TARGET = "Target";
    static final String THROTTLED_UNTIL = "ThrottledUntil";
    static final String THROTTLE_REASON = "ThrottleReason";
    static final String TTL = "ttl";

    private Fields() {
    }
}
