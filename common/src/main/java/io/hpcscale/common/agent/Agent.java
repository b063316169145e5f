package io.hpcscale.common.agent;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoreUsage;
import io.hpcscale.common.store.StoredDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent, for any scheduler. Each cycle it reads the drain requests and the nodes' notices, reads the scheduler,
 * carries out the drain handshake and the notices ({@link NoticeResponder}: requeues, and reads again if it changed
 * anything), writes the job and vm documents that changed, deletes those of jobs and nodes the scheduler no longer
 * has, and writes its heartbeat. Everything it reads from the store is read one served pool's partition at a time,
 * but the notices, which nodes write to {@code _meta} without knowing their pool.
 *
 * <p>A failed read writes nothing but the heartbeat with {@code LastError}: a missing document only ever means the
 * scheduler no longer has that job or node.
 *
 * <p>Between full cycles, {@link #changed()} checks cheaply whether one is worth running now: the scheduler's quick
 * signature (a job queued or gone) and the scaler's drain marker (a drain asked for or withdrawn).
 */
public final class Agent {
    /** How a problem of the store begins in the heartbeat's {@code LastError}. */
    static final String STORE_PROBLEM = "store: ";
    private static final Logger log = LoggerFactory.getLogger(Agent.class);
    /** The agent re-reads its documents from the store this often, repairing anything changed behind its back. */
    static final Duration RESYNC_INTERVAL = Duration.ofHours(1);
    /**
     * Drain requests are read again only when the scaler's marker moved, and at least this often whatever it says:
     * a scaler that died between writing a request and moving the marker delays a drain by at most this much.
     */
    static final Duration DRAINS_REREAD = Duration.ofMinutes(10);
    /** What the scaler asks of the agent in each pool's partition: drains, and why the pool's jobs wait. */
    private static final Set<DocumentType> POOL_REQUESTS = Set.of(DocumentType.DRAINS, DocumentType.WAIT_REASONS);

    private final SchedulerAdapter adapter;
    private final DocumentStore store;
    private final PoolMap pools;
    private final String host;
    private final String version;
    private final String agentId;
    private final DocumentMapper mapper;
    private final JobAdmission admission;
    private final Reconciler reconciler = new Reconciler();
    private final DrainResponder drainResponder;
    private final OfflineOwnership ownership = new OfflineOwnership();
    private final HealthGate healthGate;
    private final NodeReportActions nodeReports;
    private final WaitReasonsShown waitReasons;

    private WrittenDocuments written;
    private Instant loadedAt;
    private Instant lastSuccessAt;
    private Instant lastChangeAt;
    private String signatureRead;
    private String drainMarkerRead;
    private Map<String, DrainDocument> drainsRead;
    /** Why each pool's jobs wait, as the scaler said when the drains were last read: it moves the same marker. */
    private Map<String, WaitReasonsDocument> waitReasonsRead = Map.of();
    private Instant drainsReadAt;

    public Agent(SchedulerAdapter adapter, DocumentStore store, PoolMap pools, String host, String version) {
        this(adapter, store, pools, host, version, JobAdmission.none());
    }

    /** @param admission which queued jobs wait for a queue limit or a licence rather than for nodes */
    public Agent(SchedulerAdapter adapter, DocumentStore store, PoolMap pools, String host, String version,
            JobAdmission admission) {
        this(adapter, store, pools, host, version, admission, Set.of());
    }

    /** @param checkedPools pools whose nodes serve only once their health check passed ({@link HealthGate}) */
    public Agent(SchedulerAdapter adapter, DocumentStore store, PoolMap pools, String host, String version,
            JobAdmission admission, Set<String> checkedPools) {
        this.healthGate = new HealthGate(checkedPools);
        this.adapter = adapter;
        this.admission = admission;
        this.store = store;
        this.pools = pools;
        this.host = host;
        this.version = version;
        this.agentId = AgentDocument.idFor(host, adapter.scheduler());
        this.mapper = new DocumentMapper(pools, agentId);
        this.drainResponder = new DrainResponder(pools);
        this.nodeReports = new NodeReportActions(adapter, store);
        this.waitReasons = new WaitReasonsShown(adapter, pools);
    }

    public String id() {
        return agentId;
    }

    public CycleReport runOnce(Instant now) throws InterruptedException {
        long started = System.nanoTime();
        Cycle cycle = new Cycle(now);
        try {
            cycle.run();
        } catch (StoreException e) {
            cycle.problems.add(STORE_PROBLEM + e.getMessage());
            written = null;
        } catch (SchedulerReadException e) {
            cycle.problems.add(e.getMessage());
        }
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        if (cycle.succeeded) {
            lastSuccessAt = now;
        }
        if (!cycle.upserted.isEmpty() || !cycle.deleted.isEmpty() || !cycle.takenOffline.isEmpty()
                || !cycle.broughtBack.isEmpty() || !cycle.requeued.isEmpty()) {
            lastChangeAt = now;
        }
        writeHeartbeat(now, millis, cycle);
        CycleReport report = new CycleReport(now, cycle.succeeded, cycle.jobsRead, cycle.nodesRead,
                cycle.upserted, cycle.deleted, cycle.takenOffline, cycle.broughtBack, cycle.problems, millis);
        logReport(report, store.store().usage().minus(cycle.usageBefore));
        return report;
    }

    /**
     * Whether a full cycle is worth running before the next one is due: the scheduler's quick signature or the
     * scaler's drain marker differs from what the last full cycle saw. A check that fails says no: the full cycle,
     * when due, reports the problem.
     */
    public boolean changed() throws InterruptedException {
        try {
            Optional<String> signature = adapter.quickSignature();
            if (signature.isPresent() && !signature.get().equals(signatureRead)) {
                log.debug("the scheduler's queues changed: a full read now");
                return true;
            }
            String marker = drainMarker();
            if (marker != null && !marker.equals(drainMarkerRead)) {
                log.debug("the scaler changed its drain requests: a full read now");
                return true;
            }
            return false;
        } catch (SchedulerReadException | StoreException e) {
            log.debug("the quick check failed, the next full cycle will tell: {}", e.getMessage());
            return false;
        }
    }

    private String drainMarker() {
        return store.store().read(ChangeMarkerDocument.DRAINS_KEY).map(StoredDocument::etag).orElse(null);
    }

    private final class Cycle {
        final Instant now;
        final StoreUsage usageBefore = store.store().usage();
        final List<String> problems = new ArrayList<>();
        final List<ClusterLoadDocument> upserted = new ArrayList<>();
        final List<DocumentKey> deleted = new ArrayList<>();
        final List<String> takenOffline = new ArrayList<>();
        final List<String> broughtBack = new ArrayList<>();
        final List<String> requeued = new ArrayList<>();
        boolean succeeded;
        int jobsRead;
        int nodesRead;
        /** The vm documents written before this cycle, by node name. */
        Map<String, VmDocument> writtenByName;

        Cycle(Instant now) {
            this.now = now;
        }

        void run() throws SchedulerReadException, InterruptedException {
            loadIfNeeded(now);
            String marker = drainMarker();
            Map<String, VmDocument> previous = written.vmsByName();
            writtenByName = previous;
            Map<String, DrainDocument> scalerDrains = drains(marker);
            Map<String, NoticeDocument> notices = nodeReports.notices();
            Map<String, HealthDocument> health = nodeReports.health();
            Map<String, DrainDocument> drains = NoticeResponder.drainsWith(scalerDrains, notices, previous);
            Optional<String> signature = quickSignatureBefore();
            SchedulerSnapshot raw = adapter.read();
            // Holds are drain requests like the others, also as evidence of whose mark a node carries.
            drains = healthGate.withHolds(drains, health, raw, pools);
            OfflineOwnership.Resolved read = ownership.resolve(raw, drains, previous, health);
            SchedulerSnapshot snapshot = read.snapshot();
            if (respondToDrains(drains, read)) {
                snapshot = readScheduler(drains, previous, health).snapshot();
            }
            if (nodeReports.requeue(snapshot, requeued, problems)) {
                snapshot = readScheduler(drains, previous, health).snapshot();
            }
            boolean readyMarked = nodeReports.markReady(snapshot, now);
            boolean heldMarked = nodeReports.markHeld(snapshot, now, problems);
            if (!readyMarked || !heldMarked) {
                // A node rewrote its report meanwhile: read again at the next cycle.
                drainsRead = null;
            }
            jobsRead = snapshot.jobs().size();
            nodesRead = snapshot.nodes().size();
            JobAdmission.Admitted admitted = admission.admit(snapshot);
            admitted.problems().forEach(problem -> log.warn("{}", problem));
            snapshot = admitted.snapshot();
            DesiredDocuments desired = mapper.map(snapshot, drains, previous, now);
            ChangeSet changes = reconciler.diff(desired, written, snapshot.unreadableJobIds(),
                    snapshot.unreadableNodes());
            write(changes);
            // After the documents are written: the commands may take the scheduler's time, the scaler's not.
            waitReasons.show(waitReasonsRead, snapshot, now).ifPresent(problems::add);
            succeeded = true;
            drainMarkerRead = marker;
            signature.ifPresent(value -> signatureRead = value);
        }

        /** The scheduler as it is, each offline node's mark attributed with the store's evidence. */
        private OfflineOwnership.Resolved readScheduler(Map<String, DrainDocument> drains,
                Map<String, VmDocument> previous, Map<String, HealthDocument> health)
                throws SchedulerReadException, InterruptedException {
            return ownership.resolve(adapter.read(), drains, previous, health);
        }

        /** Taken before the full read, so a change that lands during it is seen by the next quick check. */
        private Optional<String> quickSignatureBefore() throws InterruptedException {
            try {
                return adapter.quickSignature();
            } catch (SchedulerReadException e) {
                return Optional.empty();
            }
        }

        /**
         * The drain requests of the served pools, with why their jobs wait: read (one query per pool) when the
         * scaler's marker moved since they were last read, or when that was {@link #DRAINS_REREAD} ago; otherwise as
         * last read, so an unchanged cycle costs one point read rather than a query per pool.
         */
        private Map<String, DrainDocument> drains(String marker) {
            // No marker yet means no scaler has asked for a drain since the store was made: nothing to re-read.
            if (drainsRead != null && Objects.equals(marker, drainMarkerRead)
                    && now.isBefore(drainsReadAt.plus(DRAINS_REREAD))) {
                return drainsRead;
            }
            Map<String, DrainDocument> byNode = new HashMap<>();
            Map<String, WaitReasonsDocument> reasons = new HashMap<>();
            for (String pool : pools.pools()) {
                for (ClusterLoadDocument document : store.inPool(pool, POOL_REQUESTS)) {
                    if (document instanceof DrainDocument drain) {
                        byNode.put(drain.name(), drain);
                    } else if (document instanceof WaitReasonsDocument told) {
                        reasons.put(pool, told);
                    }
                }
            }
            // What nodes wrote themselves goes with the drains: a node moves the same marker when it writes. Read
            // before anything read is kept, so that a store failing here leaves all of it to be read again.
            nodeReports.reread(now);
            waitReasonsRead = reasons;
            drainsRead = byNode;
            drainsReadAt = now;
            return byNode;
        }

        /** Carries out the drain handshake; true when it changed a node, so the scheduler must be read again. */
        private boolean respondToDrains(Map<String, DrainDocument> drains, OfflineOwnership.Resolved read)
                throws InterruptedException {
            DrainResponder.Actions actions = drainResponder.decide(drains, read.snapshot(), read.restored());
            boolean changed;
            // The intents recorded this cycle, by node: what the store holds beyond the cycle's first look at it.
            Map<String, VmDocument> intents = new HashMap<>();
            try {
                changed = takeOffline(actions, read, intents);
            } finally {
                // Once, rather than a copy of every written vm per drain: a large pool drains many nodes a cycle.
                written = written.withVms(intents.values());
            }
            for (SchedulerNode node : actions.bringBack()) {
                String pool = pools.poolForNode(node.name(), node.queues()).orElse(null);
                try {
                    adapter.bringBack(node.name());
                    broughtBack.add(node.name());
                    changed = true;
                    DrainFields.bringBack(log.atInfo(), pool, node.name()).addKeyValue(LogFields.OUTCOME, "ok")
                            .log("node={} returned to service: hpcscale no longer drains it", node.name());
                } catch (SchedulerCommandException e) {
                    problems.add("returning node " + node.name() + " to service failed: " + e.getMessage());
                    DrainFields.bringBack(log.atWarn(), pool, node.name())
                            .addKeyValue(LogFields.OUTCOME, "failed: " + e.getMessage())
                            .log("node={} returning it to service failed: {}", node.name(), e.getMessage());
                }
            }
            return changed;
        }

        /** Takes offline the nodes the responder chose, each after the record of the intent; true if any went. */
        private boolean takeOffline(DrainResponder.Actions actions, OfflineOwnership.Resolved read,
                Map<String, VmDocument> intents) throws InterruptedException {
            boolean changed = false;
            for (DrainDocument drain : actions.takeOffline()) {
                if (!recordIntent(drain, read.snapshot(), intents)) {
                    continue;
                }
                try {
                    adapter.offline(drain.name(), drain.reason());
                    takenOffline.add(drain.name());
                    changed = true;
                    DrainFields.takeOffline(log.atInfo(), drain).addKeyValue(LogFields.OUTCOME, "ok")
                            .log("pool={} node={} taken out of service: {}", drain.poolName(), drain.name(),
                                    drain.reason());
                } catch (SchedulerCommandException e) {
                    problems.add("taking node " + drain.name() + " offline failed: " + e.getMessage());
                    DrainFields.takeOffline(log.atWarn(), drain)
                            .addKeyValue(LogFields.OUTCOME, "failed: " + e.getMessage())
                            .log("pool={} node={} taking it offline failed: {}", drain.poolName(), drain.name(),
                                    e.getMessage());
                }
            }
            return changed;
        }

        /**
         * Before taking a node offline, its document is written echoing the drain request while it still shows the
         * node in service: the evidence that the mark is hpcscale's should the scheduler lose it (a PBS server
         * restart drops node comments) before the agent has written the offline state, because it was killed or the
         * store was down. Such a document is no acknowledgement: the scaler stops nothing on it. Without the
         * record, the node is not taken offline this cycle. A document that is evidence already needs none; one that
         * echoes the request but shows the node offline by someone else (an administrator held it, and has since
         * returned it to service) is none, and gets the record like any other. A node with no document yet (a new
         * node held for its health check, or told of an event, before its first report) gets its first one.
         *
         * @return whether the offline may go ahead
         */
        private boolean recordIntent(DrainDocument drain, SchedulerSnapshot snapshot,
                Map<String, VmDocument> intents) {
            VmDocument vm = intents.getOrDefault(drain.name(), writtenByName.get(drain.name()));
            if (vm == null) {
                SchedulerNode node = snapshot.nodes().stream().filter(n -> n.name().equals(drain.name())).findFirst()
                        .orElse(null);
                vm = node == null ? null : mapper.firstDocument(node, now).orElse(null);
                if (vm == null) {
                    return true;
                }
            }
            if (OfflineOwnership.evidenceOfOurs(vm, drain)) {
                return true;
            }
            VmDocument intent = vm.inServiceEchoing(drain.requestedAt());
            try {
                store.upsert(List.of(intent));
            } catch (StoreException e) {
                problems.add("taking node " + drain.name() + " offline waits: the store did not take the record of "
                        + "the intent: " + e.getMessage());
                return false;
            }
            intents.put(drain.name(), intent);
            upserted.add(intent);
            return true;
        }

        private void write(ChangeSet changes) {
            try {
                if (!changes.upserts().isEmpty()) {
                    store.upsert(changes.upserts());
                }
                if (!changes.deletes().isEmpty()) {
                    store.delete(changes.deletes());
                }
            } catch (StoreException e) {
                written = null;
                throw e;
            }
            upserted.addAll(changes.upserts());
            deleted.addAll(changes.deletes());
            written = changes.after();
        }
    }

    /** Reads back this agent's documents on the first cycle, after a failed write, and once an hour. */
    private void loadIfNeeded(Instant now) {
        if (written != null && loadedAt != null && now.isBefore(loadedAt.plus(RESYNC_INTERVAL))) {
            return;
        }
        Map<DocumentKey, JobDocument> jobs = new HashMap<>();
        Map<DocumentKey, VmDocument> vms = new HashMap<>();
        for (String pool : pools.pools()) {
            for (ClusterLoadDocument document : store.inPool(pool, Set.of(DocumentType.JOBS, DocumentType.VMS))) {
                if (document instanceof JobDocument job && agentId.equals(job.agent())) {
                    jobs.put(job.key(), job);
                } else if (document instanceof VmDocument vm && agentId.equals(vm.agent())) {
                    vms.put(vm.key(), vm);
                }
            }
        }
        if (lastSuccessAt == null) {
            store.read(new DocumentKey(ClusterLoadDocument.META_POOL, agentId), AgentDocument.class)
                    .ifPresent(previous -> {
                        lastSuccessAt = previous.document().lastSuccessAt();
                        lastChangeAt = previous.document().lastChangeAt();
                    });
        }
        written = new WrittenDocuments(jobs, vms);
        loadedAt = now;
        log.debug("loaded {} job and {} vm documents written earlier by {}", jobs.size(), vms.size(), agentId);
    }

    private void writeHeartbeat(Instant now, long millis, Cycle cycle) {
        String error = cycle.problems.isEmpty() ? null : String.join("; ", cycle.problems);
        AgentDocument heartbeat = new AgentDocument(agentId, adapter.scheduler(), host, version, now, millis,
                pools.pools(), error, lastSuccessAt, lastChangeAt);
        try {
            store.upsert(List.of(heartbeat));
        } catch (StoreException e) {
            cycle.problems.add("writing the heartbeat failed: " + e.getMessage());
        }
    }

    private static void logReport(CycleReport report, StoreUsage cost) {
        String store = String.format(Locale.ROOT, "store: %d requests, %.1f RU", cost.requests(),
                cost.requestUnits());
        if (report.succeeded()) {
            log.info("cycle: read {} jobs and {} nodes; wrote {} documents, deleted {}; {}; {} ms{}",
                    report.jobsRead(), report.nodesRead(), report.written().size(), report.deleted().size(), store,
                    report.millis(), report.problems().isEmpty() ? "" : "; problems: " + report.error());
        } else {
            log.warn("cycle failed, nothing deleted, heartbeat carries the error: {}; {}", report.error(), store);
        }
    }
}
