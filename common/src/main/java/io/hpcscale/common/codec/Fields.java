package io.hpcscale.common.codec;

/** Field names of the ClusterLoad contract. They keep PintaScaler's spelling so older tools keep working. */
final class Fields {
    static final String ID = "id";
    static final String TYPE = "Type";
    static final String POOL_NAME = "PoolName";
    static final String SCHEMA_VERSION = "SchemaVersion";

    static final String SCHEDULER_ID = "SchedulerId";
    static final String QUEUE_NAME = "QueueName";
    static final String STATUS = "Status";
    static final String NODES = "Nodes";
    static final String CHUNKS = "Chunks";
    static final String COUNT = "Count";
    static final String CPUS = "Cpus";
    static final String MEMORY_MB = "MemoryMb";
    static final String GPUS = "Gpus";
    static final String PLACEMENT = "Placement";
    static final String EXCLUSIVE = "Exclusive";
    static final String SUBMITTED_AT = "SubmittedAt";
    static final String AGENT = "Agent";

    static final String NAME = "Name";
    static final String JOB_STATUS = "JobStatus";
    static final String SCHEDULER_STATE = "SchedulerState";
    static final String OFFLINE = "Offline";
    static final String OFFLINE_BY_HPCSCALE = "OfflineByHpcscale";
    static final String DOWN = "Down";
    static final String CPUS_TOTAL = "CpusTotal";
    static final String CPUS_USED = "CpusUsed";
    static final String MEMORY_MB_USED = "MemoryMbUsed";
    static final String GPUS_USED = "GpusUsed";
    static final String JOB_IDS = "JobIds";
    static final String LAST_BUSY_AT = "LastBusyAt";
    static final String SEEN_AT = "SeenAt";
    static final String DRAIN_REQUESTED_AT = "DrainRequestedAt";

    static final String REASON = "Reason";
    static final String REQUESTED_AT = "RequestedAt";

    static final String SCHEDULER = "Scheduler";
    static final String HOST = "Host";
    static final String VERSION = "Version";
    static final String LAST_CYCLE_AT = "LastCycleAt";
    static final String CYCLE_MILLIS = "CycleMillis";
    static final String POOLS = "Pools";
    static final String LAST_ERROR = "LastError";
    static final String LAST_SUCCESS_AT = "LastSuccessAt";
    static final String LAST_CHANGE_AT = "LastChangeAt";
    static final String CHANGED_AT = "ChangedAt";

    static final String AT = "At";
    static final String ACTION = "Action";
    static final String INSTANCES = "Instances";
    static final String OUTCOME = "Outcome";
    static final String TTL = "ttl";

    static final String DAY = "Day";
    static final String INSTANCE_SECONDS = "InstanceSeconds";
    static final String BUSY_SECONDS = "BusySeconds";
    static final String LAST_SAMPLE_AT = "LastSampleAt";
    static final String LAST_ACTIVE = "LastActive";
    static final String LAST_BUSY = "LastBusy";

    static final String CONSECUTIVE_BOOT_FAILURES = "ConsecutiveBootFailures";
    static final String BACKOFF_UNTIL = "BackoffUntil";
    static final String BACKOFF_REASON = "BackoffReason";
    static final String THROTTLED_UNTIL = "ThrottledUntil";
    static final String THROTTLE_REASON = "ThrottleReason";
    static final String GROWN_AT = "GrownAt";
    static final String GROWING = "Growing";
    static final String CAPACITY = "Capacity";
    static final String EVICTIONS = "Evictions";
    static final String EVICTION_ROUNDS = "EvictionRounds";
    static final String TARGET = "Target";
    static final String REMOVALS = "Removals";
    static final String SEALED_SCALE_SETS = "SealedScaleSets";
    static final String REQUESTED_BY = "RequestedBy";
    static final String COUNT_FROM = "CountFrom";
    static final String COUNT_TO = "CountTo";
    static final String LOWERED = "Lowered";
    static final String SET_AT = "SetAt";
    static final String SET_BY = "SetBy";
    static final String PENDING_CREATE = "PendingCreate";
    static final String LAST_ACTION = "LastAction";
    static final String STARTED_AT = "StartedAt";
    static final String START_REASON = "StartReason";
    static final String BOOTING = "Booting";
    static final String STOPPED_AT = "StoppedAt";
    static final String STOP_KIND = "StopKind";
    static final String STOP_REASON = "StopReason";
    static final String PENDING = "Pending";

    static final String HOLDER = "Holder";
    static final String PID = "Pid";
    static final String BOOT_ID = "BootId";
    static final String RENEWED_AT = "RenewedAt";
    static final String EXPIRES_AT = "ExpiresAt";

    private Fields() {
    }
}
