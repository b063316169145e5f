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
    static final String WAITING_FOR = "WaitingFor";
    static final String CONSTRAINTS = "Constraints";
    static final String TIME_LIMIT_SECONDS = "TimeLimitSeconds";
    static final String STARTED_AT = "StartedAt";
    static final String ENDS_AT = "EndsAt";

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

    static final String ACTION = "Action";

    static final String EVENT_ID = "EventId";
    static final String EVENT_TYPE = "EventType";
    static final String NOT_BEFORE = "NotBefore";
    static final String DESCRIPTION = "Description";
    static final String RECEIVED_AT = "ReceivedAt";
    static final String READY_AT = "ReadyAt";
    static final String TTL = "ttl";

    static final String STATE = "State";
    static final String OUTPUT = "Output";
    static final String CHECKED_AT = "CheckedAt";
    static final String HELD_AT = "HeldAt";

    static final String JOB_REASONS = "JobReasons";

    private Fields() {
    }
}
