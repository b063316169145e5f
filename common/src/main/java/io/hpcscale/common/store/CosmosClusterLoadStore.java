package io.hpcscale.common.store;

import com.azure.core.credential.TokenCredential;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosEndToEndOperationLatencyPolicyConfigBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.DirectConnectionConfig;
import com.azure.cosmos.GatewayConnectionConfig;
import com.azure.cosmos.ThrottlingRetryOptions;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosBulkExecutionOptions;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosContainerResponse;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.CosmosItemRequestOptions;
import com.azure.cosmos.models.CosmosItemResponse;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.cli.Version;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.time.Monotonic;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClusterLoad collection in Azure Cosmos DB (NoSQL API), partitioned by {@code /PoolName}, for an agent and a
 * scaler on different hosts. Reads are scoped to a pool's partition wherever the pool is known, queries are
 * parameterised, many documents are written with bulk operations, and what must not be overwritten blindly (lease,
 * scaler state) uses ETag-conditional writes.
 *
 * <p>Throttling (429) is retried by the SDK, then by this store a few times more honouring the server's retry-after;
 * unavailable (503) and timed-out (408) requests, which the SDK does not retry for writes, are retried here with a
 * short back-off. Every operation is bounded by {@code store.cosmos.requestTimeout}, so a hung server fails a cycle
 * rather than holding it. Whatever still fails is a {@link StoreException}: the cycle fails cleanly.
 *
 * <p>The client is made, and the container checked (or created), on first use, so a program started while Cosmos
 * DB is unreachable runs and recovers when it comes back.
 *
 * <p>Readers that follow a pool read only what changed ({@link #changesSince}): a query on {@code _ts}, the
 * server's own time of each write, which the default indexing and ours index. A query that returns 1,000 documents of
 * 1 KB costs 1,000 RU, so re-reading a 5,000-job cluster every cycle cost more than a 400 RU/s container gives in a
 * second; the change since the last cycle is a few dozen documents. Such a query cannot see a deletion, so a
 * deletion here replaces the document with a small tombstone ({@code Type} {@value #TOMBSTONE}) that expires after
 * {@link ClusterLoadStore#DELETIONS_KEPT} by the container's TTL. Every other read ignores tombstones: they match no
 * document type, and a point read of one finds nothing. (The change feed was the alternative; in its latest-version
 * mode it reports no deletions either, and it costs a request per physical partition even when nothing changed.)
 */
public final class CosmosClusterLoadStore implements ClusterLoadStore {
    private static final Logger log = LoggerFactory.getLogger(CosmosClusterLoadStore.class);
    private static final int ATTEMPTS = 3;
    /** The SDK's own end-to-end timeout: the operation's whole time is spent, so it is not tried again. */
    private static final int END_TO_END_TIMEOUT = 20008;
    /** 429 substatus codes of the SDK's own throughput control, for single requests and for bulk. */
    private static final Set<Integer> PACED = Set.of(10003, 10005);
    private static final Duration MAX_RETRY_WAIT = Duration.ofSeconds(5);
    private static final int PAGE_SIZE = 1000;
    private static final int REWRITE_RU = 11;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The {@code Type} of a deleted document's tombstone. */
    static final String TOMBSTONE = "deleted";
    private static final Set<String> SYSTEM_FIELDS = Set.of("_rid", "_self", "_etag", "_attachments", "_ts", "_lsn");

    private final CosmosSettings settings;
    private final UsageMeter meter = new UsageMeter();
    private final SettledSeconds settled = new SettledSeconds(Monotonic.system());
    private CosmosClient client;
    private CosmosContainer container;
    private CompletableFuture<CosmosClient> starting;
    private long startingSince;

    public CosmosClusterLoadStore(CosmosSettings settings) {
        this.settings = settings;
    }

    @Override
    public void upsertAll(Collection<ObjectNode> documents) {
        if (documents.isEmpty()) {
            return;
        }
        if (documents.size() == 1) {
            ObjectNode document = documents.iterator().next();
            DocumentKey key = DocumentKeys.of(document);
            checkId(key);
            call("write " + key, () -> charged(container().upsertItem(document, partition(key),
                    new CosmosItemRequestOptions())));
            return;
        }
        List<CosmosItemOperation> operations = new ArrayList<>(documents.size());
        List<String> refused = new ArrayList<>();
        for (ObjectNode document : documents) {
            DocumentKeys.type(document);
            DocumentKey key = DocumentKeys.of(document);
            String why = refusedId(key);
            if (why != null) {
                refused.add(why);
            } else {
                operations.add(CosmosBulkOperations.getUpsertItemOperation(document, partition(key)));
            }
        }
        bulk("write " + documents.size() + " documents", operations);
        failIfRefused("write", refused);
    }

    /** The rest of a batch is written; the documents whose ids Cosmos DB would refuse are named. */
    private void failIfRefused(String what, List<String> refused) {
        if (!refused.isEmpty()) {
            throw new StoreException(describe() + " did not " + what + " " + refused.size() + " documents (the others "
                    + "were done): " + refused.get(0) + ". The program that made the id has a bug, please report it");
        }
    }

    @Override
    public void deleteAll(Collection<DocumentKey> keys) {
        if (keys.isEmpty()) {
            return;
        }
        List<CosmosItemOperation> operations = keys.stream().filter(key -> refusedId(key) == null)
                .map(key -> CosmosBulkOperations.getUpsertItemOperation(tombstone(key), partition(key))).toList();
        bulk("delete " + keys.size() + " documents", operations);
        failIfRefused("delete", keys.stream().map(CosmosClusterLoadStore::refusedId).filter(Objects::nonNull).toList());
    }

    @Override
    public Optional<StoredDocument> read(DocumentKey key) {
        checkId(key);
        return call("read " + key, () -> {
            try {
                CosmosItemResponse<ObjectNode> response = container().readItem(key.id(), partition(key),
                        ObjectNode.class);
                charged(response);
                return isTombstone(response.getItem()) ? Optional.empty() : Optional.of(stored(response.getItem()));
            } catch (CosmosException e) {
                if (e.getStatusCode() == 404) {
                    meter.request(e.getRequestCharge());
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    @Override
    public List<StoredDocument> query(DocumentType type, String poolName) {
        return queryPool(poolName, Set.of(type));
    }

    @Override
    public List<StoredDocument> queryPool(String poolName, Set<DocumentType> types) {
        List<SqlParameter> parameters = new ArrayList<>();
        SqlQuerySpec query = new SqlQuerySpec("SELECT * FROM c WHERE " + typeIn(types, parameters), parameters);
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey(poolName));
        return call("read " + types.size() + " document types of pool " + poolName, () -> run(query, options));
    }

    @Override
    public List<StoredDocument> queryByType(DocumentType type) {
        SqlQuerySpec query = new SqlQuerySpec("SELECT * FROM c WHERE c.Type = @type",
                List.of(new SqlParameter("@type", type.wireName())));
        return call("read the " + type.wireName() + " documents of every pool",
                () -> run(query, new CosmosQueryRequestOptions()));
    }

    @Override
    public PoolChanges changesSince(String poolName, Set<DocumentType> types, long position) {
        List<SqlParameter> parameters = new ArrayList<>();
        String typeFilter = typeIn(types, parameters);
        boolean whole = position <= PoolChanges.START;
        SqlQuerySpec query;
        if (whole) {
            query = new SqlQuerySpec("SELECT * FROM c WHERE " + typeFilter, parameters);
        } else {
            parameters.add(new SqlParameter("@since", settled.since(poolName, position)));
            parameters.add(new SqlParameter("@tombstone", TOMBSTONE));
            query = new SqlQuerySpec("SELECT * FROM c WHERE c._ts >= @since AND (" + typeFilter
                    + " OR c.Type = @tombstone)", parameters);
        }
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions().setPartitionKey(new PartitionKey(poolName));
        return call("read what changed in pool " + poolName, () -> {
            long began = settled.now();
            PoolChanges changes = runChanges(query, options, position, whole);
            settled.answered(poolName, changes.position(), began);
            return changes;
        });
    }

    /** The {@code c.Type IN (...)} condition for these types, its parameters added to {@code parameters}. */
    private static String typeIn(Set<DocumentType> types, List<SqlParameter> parameters) {
        List<String> names = new ArrayList<>();
        for (DocumentType type : types.stream().sorted().toList()) {
            String name = "@type" + names.size();
            names.add(name);
            parameters.add(new SqlParameter(name, type.wireName()));
        }
        return "c.Type IN (" + String.join(", ", names) + ")";
    }

    /** Runs a query of changes: its documents, the tombstones it met as deletions, and the newest {@code _ts}. */
    private PoolChanges runChanges(SqlQuerySpec query, CosmosQueryRequestOptions options, long position,
            boolean whole) {
        List<StoredDocument> documents = new ArrayList<>();
        List<DocumentKey> deleted = new ArrayList<>();
        long latest = Math.max(position, PoolChanges.START);
        for (FeedResponse<ObjectNode> page : container().queryItems(query, options, ObjectNode.class)
                .iterableByPage(PAGE_SIZE)) {
            meter.request(page.getRequestCharge());
            for (ObjectNode item : page.getResults()) {
                latest = Math.max(latest, item.path("_ts").asLong());
                if (isTombstone(item)) {
                    deleted.add(new DocumentKey(item.path("PoolName").asText(), item.path("id").asText()));
                } else {
                    documents.add(stored(item));
                }
            }
        }
        return new PoolChanges(documents, deleted, latest, whole);
    }

    /**
     * One partition when a pool is given, filtered here rather than in the client: {@code events --follow} on 20,000
     * events read them all every 5 seconds, about 3,000 RU a time. {@code At} is an ISO-8601 text, compared as text,
     * so the bound goes a second early (a fraction of a second sorts before "Z"); the reader drops what is earlier.
     */
    @Override
    public PoolChanges eventsSince(String poolName, Instant from, long position) {
        List<SqlParameter> parameters = new ArrayList<>();
        parameters.add(new SqlParameter("@type", DocumentType.EVENTS.wireName()));
        String filter;
        if (position <= PoolChanges.START) {
            filter = "c.At >= @from";
            parameters.add(new SqlParameter("@from", from.minusSeconds(1).truncatedTo(ChronoUnit.SECONDS).toString()));
        } else {
            filter = "c._ts >= @since";
            parameters.add(new SqlParameter("@since", position - SettledSeconds.OVERLAP_SECONDS));
        }
        SqlQuerySpec query = new SqlQuerySpec("SELECT * FROM c WHERE c.Type = @type AND " + filter, parameters);
        CosmosQueryRequestOptions options = new CosmosQueryRequestOptions();
        if (poolName != null) {
            options.setPartitionKey(new PartitionKey(poolName));
        }
        return call("read the events" + (poolName == null ? "" : " of pool " + poolName),
                () -> runChanges(query, options, position, position <= PoolChanges.START));
    }

    @Override
    public String replaceIfMatch(ObjectNode document, String expectedEtag) {
        DocumentKey key = DocumentKeys.of(document);
        checkId(key);
        return call("replace " + key, () -> {
            try {
                return charged(container().replaceItem(document, key.id(), partition(key),
                        new CosmosItemRequestOptions().setIfMatchETag(expectedEtag))).getETag();
            } catch (CosmosException e) {
                if (e.getStatusCode() == 412) {
                    meter.request(e.getRequestCharge());
                    return ownEarlierWrite(key, document).orElseThrow(() -> new EtagConflictException(key,
                            "changed since it was read (ETag " + expectedEtag + " is stale)"));
                }
                if (e.getStatusCode() == 404) {
                    meter.request(e.getRequestCharge());
                    throw new EtagConflictException(key, "no longer exists");
                }
                throw e;
            }
        });
    }

    @Override
    public String create(ObjectNode document) {
        DocumentKey key = DocumentKeys.of(document);
        checkId(key);
        return call("create " + key, () -> {
            try {
                return charged(container().createItem(document, partition(key), new CosmosItemRequestOptions()))
                        .getETag();
            } catch (CosmosException e) {
                if (e.getStatusCode() == 409) {
                    meter.request(e.getRequestCharge());
                    return overTombstone(key, document).or(() -> ownEarlierWrite(key, document))
                            .orElseThrow(() -> new EtagConflictException(key, "already exists"));
                }
                throw e;
            }
        });
    }

    /**
     * The ETag of the stored document if it is exactly the one this call was writing. A conditional write that timed
     * out or met a 503 may have committed before it was tried again; the retry then meets 412 (or 409 for a create)
     * on its own earlier write, which is no other writer. The document carries its writer and the time it was
     * written, so an equal copy is this write.
     */
    private Optional<String> ownEarlierWrite(DocumentKey key, ObjectNode written) {
        CosmosItemResponse<ObjectNode> current;
        try {
            current = charged(container().readItem(key.id(), partition(key), ObjectNode.class));
        } catch (CosmosException e) {
            meter.request(e.getRequestCharge());
            return Optional.empty();
        }
        String etag = current.getETag();
        if (!sameJson(stored(current.getItem()).json(), written)) {
            return Optional.empty();
        }
        log.info("{}: a write of {} that seemed to fail had succeeded; carrying on with it", describe(), key);
        return Optional.ofNullable(etag);
    }

    /** Creates the document in place of its tombstone, if a tombstone is what stands there: a deleted id is free. */
    private Optional<String> overTombstone(DocumentKey key, ObjectNode document) {
        CosmosItemResponse<ObjectNode> current;
        try {
            current = charged(container().readItem(key.id(), partition(key), ObjectNode.class));
        } catch (CosmosException e) {
            meter.request(e.getRequestCharge());
            return Optional.empty();
        }
        if (!isTombstone(current.getItem())) {
            return Optional.empty();
        }
        try {
            return Optional.of(charged(container().replaceItem(document, key.id(), partition(key),
                    new CosmosItemRequestOptions().setIfMatchETag(current.getETag()))).getETag());
        } catch (CosmosException e) {
            if (e.getStatusCode() == 412) {
                meter.request(e.getRequestCharge());
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Equal as JSON text would be read back: a long written as 4242 reads back as an int. */
    private static boolean sameJson(ObjectNode a, ObjectNode b) {
        try {
            return JSON.readTree(a.toString()).equals(JSON.readTree(b.toString()));
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** Cosmos DB deletes documents whose {@code ttl} has passed by itself, and never returns them meanwhile. */
    @Override
    public int purgeExpired() {
        return 0;
    }

    /**
     * What in the account's settings puts the lease or the state at risk, and what in the container's costs more than
     * it should; the container's shape was checked when it was opened.
     */
    @Override
    public List<String> setupProblems() {
        CosmosContainerProperties properties = call("read the container's settings",
                () -> container().read().getProperties());
        List<String> problems = new ArrayList<>();
        String level = settings.consistency() != null ? settings.consistency().toString() : null;
        try {
            CosmosAccount.read(settings, settings.key() == null ? credential() : null, Clock.systemUTC())
                    .problems(level, ContainerCheck.accountName(settings))
                    .forEach(problem -> problems.add(settings.describe() + ": " + problem));
        } catch (RuntimeException e) {
            // The account's settings are one finding among others: what the container says is still worth saying.
            problems.add((e instanceof StoreException ? "" : settings.describe() + ": the account's settings cannot "
                    + "be read: ") + e.getMessage() + "; its write regions and consistency are not checked");
        }
        String unneeded = IndexPaths.unneeded(properties.getIndexingPolicy());
        if (unneeded != null) {
            problems.add(settings.describe() + " indexes " + unneeded + ", which no query of hpcscale filters on: "
                    + "every write pays for it (about 2 RU more per job document). Index only what hpcscale queries: "
                    + ContainerCheck.update(settings) + " --idx '" + IndexPaths.POLICY_JSON + "'");
        }
        return problems;
    }

    @Override
    public StoreUsage usage() {
        return meter.usage();
    }

    @Override
    public String describe() {
        return settings.describe();
    }

    @Override
    public synchronized void close() {
        if (starting != null) {
            starting.thenAccept(CosmosClient::close);
            starting = null;
        }
        if (client != null) {
            client.close();
            client = null;
            container = null;
        }
    }

    private List<StoredDocument> run(SqlQuerySpec query, CosmosQueryRequestOptions options) {
        List<StoredDocument> result = new ArrayList<>();
        for (FeedResponse<ObjectNode> page : container().queryItems(query, options, ObjectNode.class)
                .iterableByPage(PAGE_SIZE)) {
            meter.request(page.getRequestCharge());
            for (ObjectNode item : page.getResults()) {
                result.add(stored(item));
            }
        }
        return result;
    }

    /**
     * Bulk writes, checked one by one: operations throttled or refused for the moment are tried again, with what
     * the server said to wait; anything else that failed fails the call, after the others were done.
     */
    private void bulk(String what, List<CosmosItemOperation> operations) {
        if (operations.isEmpty()) {
            return;
        }
        List<CosmosItemOperation> pending = operations;
        for (int attempt = 1; ; attempt++) {
            List<CosmosItemOperation> retry = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            Duration wait = Duration.ZERO;
            List<CosmosItemOperation> batch = pending;
            List<CosmosBulkOperationResponse<Object>> responses = call(what, () -> {
                List<CosmosBulkOperationResponse<Object>> all = new ArrayList<>(batch.size());
                container().executeBulkOperations(batch, bulkOptions()).forEach(all::add);
                return all;
            });
            for (CosmosBulkOperationResponse<Object> response : responses) {
                CosmosItemOperation operation = response.getOperation();
                int status = response.getResponse() != null ? response.getResponse().getStatusCode()
                        : response.getException() instanceof CosmosException e ? e.getStatusCode() : -1;
                if (response.getResponse() != null) {
                    meter.request(response.getResponse().getRequestCharge());
                }
                if (status >= 200 && status < 300) {
                    continue;
                }
                if (isTransient(status)) {
                    retry.add(operation);
                    if (response.getResponse() != null && response.getResponse().getRetryAfterDuration() != null
                            && response.getResponse().getRetryAfterDuration().compareTo(wait) > 0) {
                        wait = response.getResponse().getRetryAfterDuration();
                    }
                } else {
                    failures.add(describe(operation) + " (" + status + ": " + refusal(response) + ")");
                }
            }
            if (!failures.isEmpty()) {
                throw new StoreException(describe() + " failed to " + what + ": " + failures.size() + " refused, "
                        + "the first: " + failures.get(0));
            }
            if (retry.isEmpty()) {
                return;
            }
            if (attempt >= ATTEMPTS) {
                throw new StoreException(describe() + " failed to " + what + ": " + retry.size() + " documents "
                        + "still throttled or unavailable after " + ATTEMPTS + " attempts; the cycle is retried later");
            }
            pause(wait.isZero() ? backoff(attempt) : min(wait, MAX_RETRY_WAIT));
            pending = retry;
        }
    }

    /**
     * Bulk writes go in batches of up to 100 documents, each charged as one request: about 1,100 RU for 100 rewrites,
     * more than a paced second allows. When this program is paced, a batch is kept to about a quarter of its second
     * (a rewritten document costs about {@value #REWRITE_RU} RU), so the pacing can spread the writes.
     */
    private CosmosBulkExecutionOptions bulkOptions() {
        CosmosBulkExecutionOptions options = new CosmosBulkExecutionOptions();
        if (settings.requestUnitsPerSecond() > 0) {
            int documents = Math.max(1, settings.requestUnitsPerSecond() / 4 / REWRITE_RU);
            options.setInitialMicroBatchSize(Math.min(documents, options.getInitialMicroBatchSize()));
            options.setMaxMicroBatchSize(Math.min(documents, options.getMaxMicroBatchSize()));
        }
        return options;
    }

    private static ObjectNode tombstone(DocumentKey key) {
        ObjectNode json = JSON.createObjectNode();
        json.put("id", key.id());
        json.put("PoolName", key.poolName());
        json.put("Type", TOMBSTONE);
        json.put("ttl", DELETIONS_KEPT.toSeconds());
        return json;
    }

    private static boolean isTombstone(ObjectNode item) {
        return TOMBSTONE.equals(item.path("Type").asText());
    }

    /** The document an operation wrote or deleted, named as hpcscale names it: the item carries its id. */
    private static String describe(CosmosItemOperation operation) {
        String id = operation.getId() != null ? operation.getId()
                : operation.getItem() instanceof ObjectNode item ? item.path("id").asText() : "?";
        return "document " + shortened(id) + " of pool " + operation.getPartitionKeyValue();
    }

    private static String refusal(CosmosBulkOperationResponse<Object> response) {
        if (response.getException() != null) {
            return firstLine(response.getException().getMessage());
        }
        int status = response.getResponse() == null ? -1 : response.getResponse().getStatusCode();
        return switch (status) {
            case 400 -> "the service refused the document as malformed";
            case 401, 403 -> "this identity may not write it";
            case 409 -> "it already exists";
            case 413 -> "the document is larger than Cosmos DB's 2 MB limit";
            default -> "refused";
        };
    }

    private static String shortened(String id) {
        return id.length() > 80 ? "'" + id.substring(0, 80) + "...' (" + id.length() + " characters)" : "'" + id + "'";
    }

    /**
     * Why Cosmos DB would refuse this id, or null: the service's own answer names nothing, so it is checked before
     * sending. {@link CosmosIds} never makes such ids.
     */
    private static String refusedId(DocumentKey key) {
        int bytes = key.id().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > CosmosIds.MAX_BYTES) {
            return "document " + shortened(key.id()) + " of pool " + key.poolName() + " has an id of " + bytes
                    + " bytes: Cosmos DB refuses ids over " + CosmosIds.MAX_BYTES + " bytes";
        }
        if (key.id().indexOf('/') >= 0 || key.id().indexOf('\\') >= 0) {
            return "document " + shortened(key.id()) + " of pool " + key.poolName() + " has '/' or '\\' in its id, "
                    + "which Cosmos DB refuses";
        }
        return null;
    }

    /** Fails for a single document whose id Cosmos DB would refuse, before anything is sent. */
    private static void checkId(DocumentKey key) {
        String refused = refusedId(key);
        if (refused != null) {
            throw new StoreException(refused + ". Nothing was written; the program that made the id has a bug, "
                    + "please report it");
        }
    }

    /** Runs one operation; throttled, unavailable and timed-out answers are retried a few times. */
    private <T> T call(String what, Supplier<T> operation) {
        for (int attempt = 1; ; attempt++) {
            try {
                return operation.get();
            } catch (CosmosException e) {
                meter.request(e.getRequestCharge());
                if (!isTransient(e.getStatusCode()) || e.getSubStatusCode() == END_TO_END_TIMEOUT
                        || attempt >= ATTEMPTS) {
                    throw failure(what, e, attempt);
                }
                Duration wait = e.getStatusCode() == 429 && e.getRetryAfterDuration() != null
                        ? min(e.getRetryAfterDuration(), MAX_RETRY_WAIT) : backoff(attempt);
                log.debug("{} to {} answered {}/{}; trying again in {} ms", describe(), what, e.getStatusCode(),
                        e.getSubStatusCode(), wait.toMillis());
                pause(wait);
            } catch (RuntimeException e) {
                if (e instanceof StoreException || e instanceof EtagConflictException) {
                    throw e;
                }
                throw new StoreException(describe() + " failed to " + what + ": " + e.getMessage()
                        + " (check store.cosmos.endpoint and that this host reaches it)", e);
            }
        }
    }

    private StoreException failure(String what, CosmosException e, int attempts) {
        String why = switch (e.getStatusCode()) {
            case 401 -> "the key or token was refused (401): check store.cosmos.auth and the key file or identity";
            case 403 -> "permission denied (403): grant this identity the Cosmos DB Built-in Data Contributor role "
                    + "on the account (see docs/operations.md)";
            case 408 -> "no answer within store.cosmos.requestTimeout (" + settings.requestTimeout().toSeconds()
                    + "s)";
            case 429 -> PACED.contains(e.getSubStatusCode())
                    ? "held back by this program's own pacing after " + attempts + " attempts: raise "
                    + "store.cosmos.requestUnitsPerSecond (" + settings.requestUnitsPerSecond() + ") or "
                    + "store.cosmos.requestTimeout (" + settings.requestTimeout().toSeconds() + "s)"
                    : "throttled (429) after " + attempts + " attempts: the container needs more request units";
            case 503 -> "unavailable (503) after " + attempts + " attempts";
            default -> consistencyRefused(e.getMessage()) ? CONSISTENCY_REFUSED
                    : "status " + e.getStatusCode() + "/" + e.getSubStatusCode() + ": " + firstLine(e.getMessage());
        };
        return new StoreException(describe() + " failed to " + what + ": " + why, e);
    }

    private static final String CONSISTENCY_REFUSED = "store.cosmos.consistency asks for a level stronger than the "
            + "account's default consistency, which Cosmos DB refuses: leave store.cosmos.consistency unset to use "
            + "the account's own level, or set it to that level or a weaker one";

    /** The SDK's words when a client asks for more consistency than the account gives (azure-cosmos 4.x). */
    private static boolean consistencyRefused(String message) {
        return message != null && message.contains("invalid when service is configured with consistency level");
    }

    private static boolean isTransient(int status) {
        return status == 429 || status == 503 || status == 408 || status == 449 || status == 410;
    }

    private static Duration backoff(int attempt) {
        return Duration.ofMillis(200L << Math.min(attempt - 1, 4));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    private static void pause(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting to retry a Cosmos DB request");
        }
    }

    /** The first line of a message, at most 300 characters: what the service said, fit for one log line. */
    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int end = message.indexOf('\n');
        String line = end < 0 ? message : message.substring(0, end);
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    private <T> CosmosItemResponse<T> charged(CosmosItemResponse<T> response) {
        meter.request(response.getRequestCharge());
        return response;
    }

    private static PartitionKey partition(DocumentKey key) {
        return new PartitionKey(key.poolName());
    }

    /** The document as hpcscale wrote it: Cosmos DB's own fields go, its ETag is kept beside it. */
    private static StoredDocument stored(ObjectNode item) {
        String etag = item.path("_etag").asText();
        long writtenAt = item.path("_ts").asLong();
        item.remove(SYSTEM_FIELDS);
        return new StoredDocument(item, etag, writtenAt);
    }

    private synchronized CosmosContainer container() {
        if (container != null) {
            return container;
        }
        if (client == null) {
            client = startedClient();
        }
        container = ContainerCheck.open(client, settings, meter);
        return container;
    }

    /**
     * The client, built on a thread of its own. Its start-up (reading the account, the SDK's GlobalEndpointManager)
     * is not bounded by the operations' end-to-end timeout and has hung for 30 to 120 s (azure-sdk-for-java issues
     * 16078 and 29529): a cycle waits for it at most {@code store.cosmos.requestTimeout}, then fails cleanly, and the
     * next call waits again for the same start-up rather than beginning another.
     */
    private CosmosClient startedClient() {
        if (starting == null) {
            startingSince = System.nanoTime();
            starting = CompletableFuture.supplyAsync(this::build, task -> {
                Thread thread = new Thread(task, "cosmos-client-start");
                thread.setDaemon(true);
                thread.start();
            });
        }
        try {
            CosmosClient made = starting.get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            starting = null;
            return made;
        } catch (TimeoutException e) {
            throw new StoreException(describe() + ": its client has been starting for "
                    + Duration.ofNanos(System.nanoTime() - startingSince).toSeconds() + " s (reading the account's "
                    + "regions); the next call waits for it again. Check store.cosmos.endpoint and that this host "
                    + "reaches it on port 443");
        } catch (ExecutionException e) {
            starting = null;
            if (e.getCause() instanceof StoreException failed) {
                throw failed;
            }
            throw new StoreException(describe() + " cannot be reached: " + firstLine(e.getCause().getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while the Cosmos DB client was starting");
        }
    }

    private CosmosClient build() {
        // Multi-region writes off: with them a write may commit in a secondary region whose copy of the ETag matches,
        // so two scalers could both "win" the lease (database-transactions-optimistic-concurrency). Writes then go to
        // the account's one write region even on an account that allows several.
        CosmosClientBuilder builder = new CosmosClientBuilder()
                .endpoint(settings.endpoint())
                .multipleWriteRegionsEnabled(false)
                .contentResponseOnWriteEnabled(false)
                .userAgentSuffix("hpcscale/" + Version.current())
                .throttlingRetryOptions(new ThrottlingRetryOptions()
                        .setMaxRetryAttemptsOnThrottledRequests(9)
                        .setMaxRetryWaitTime(Duration.ofSeconds(10)))
                .endToEndOperationLatencyPolicyConfig(
                        new CosmosEndToEndOperationLatencyPolicyConfigBuilder(settings.requestTimeout()).build())
                .endpointDiscoveryEnabled(!settings.localServer())
                .preferredRegions(settings.preferredRegions());
        if (settings.consistency() != null) {
            builder.consistencyLevel(settings.consistency());
        }
        if (settings.directMode()) {
            builder.directMode(DirectConnectionConfig.getDefaultConfig(), GatewayConnectionConfig.getDefaultConfig());
        } else {
            builder.gatewayMode(GatewayConnectionConfig.getDefaultConfig());
        }
        if (settings.key() != null) {
            builder.key(settings.key());
        } else {
            builder.credential(credential());
        }
        try {
            return builder.buildClient();
        } catch (RuntimeException e) {
            if (consistencyRefused(e.getMessage())) {
                throw new StoreException(describe() + ": " + CONSISTENCY_REFUSED, e);
            }
            throw new StoreException(describe() + " cannot be reached: " + firstLine(e.getMessage())
                    + " (check store.cosmos.endpoint, and that this host reaches it on port 443)", e);
        }
    }

    private TokenCredential credential() {
        DefaultAzureCredentialBuilder builder = new DefaultAzureCredentialBuilder();
        if (settings.managedIdentityClientId() != null) {
            builder.managedIdentityClientId(settings.managedIdentityClientId());
        }
        return builder.build();
    }

    /** Opens the container, creating it (and its database) when allowed and missing, and checks its shape. */
    private static final class ContainerCheck {
        private ContainerCheck() {
        }

        static CosmosContainer open(CosmosClient client, CosmosSettings settings, UsageMeter meter) {
            try {
                if (settings.createIfMissing()) {
                    meter.request(client.createDatabaseIfNotExists(settings.database()).getRequestCharge());
                    CosmosContainerProperties properties = new CosmosContainerProperties(settings.container(),
                            "/PoolName");
                    properties.setDefaultTimeToLiveInSeconds(-1);
                    properties.setIndexingPolicy(IndexPaths.policy());
                    meter.request(client.getDatabase(settings.database()).createContainerIfNotExists(properties)
                            .getRequestCharge());
                }
                CosmosContainer container = client.getDatabase(settings.database()).getContainer(settings.container());
                CosmosContainerResponse read = container.read();
                meter.request(read.getRequestCharge());
                checkShape(read.getProperties(), settings);
                pace(container, settings.requestUnitsPerSecond());
                return container;
            } catch (CosmosException e) {
                meter.request(e.getRequestCharge());
                throw missing(settings, e);
            }
        }

        /**
         * A cycle's writes are a burst (an agent's 75 changed documents cost about 850 RU) that a container
         * provisioned with less per second answers with 429s. The SDK's local throughput control spreads this
         * client's requests so that they spend the given RU per second on average (a request admitted with budget
         * left may overdraw it: measured, a second saw up to twice the rate): the burst takes a few seconds longer
         * and meets no 429 of its own making. It holds back the requests it would have sent past the rate
         * and retries them itself, so a store call sees only a slower answer; with continueOnInitError a control
         * that cannot start (it reads the container's partition ranges) leaves requests unpaced rather than failed.
         */
        private static void pace(CosmosContainer container, int requestUnitsPerSecond) {
            if (requestUnitsPerSecond <= 0) {
                return;
            }
            container.enableLocalThroughputControlGroup(new ThroughputControlGroupConfigBuilder()
                    .groupName("hpcscale")
                    .targetThroughput(requestUnitsPerSecond)
                    .defaultControlGroup(true)
                    .continueOnInitError(true)
                    .build());
        }

        private static void checkShape(CosmosContainerProperties properties, CosmosSettings settings) {
            List<String> paths = properties.getPartitionKeyDefinition().getPaths();
            if (!paths.equals(List.of("/PoolName"))) {
                throw new StoreException(settings.describe() + " is partitioned by " + paths + ", not /PoolName: "
                        + "create a container with partition key /PoolName (its key cannot be changed) and name it "
                        + "in store.cosmos.container");
            }
            Integer ttl = properties.getDefaultTimeToLiveInSeconds();
            if (ttl == null) {
                throw new StoreException(settings.describe() + " has time to live off, so events and deletions would "
                        + "never expire: turn it on without a default (" + update(settings) + " --ttl -1)");
            }
            if (ttl > 0) {
                throw new StoreException(settings.describe() + " expires every document after " + ttl + " s (its "
                        + "default time to live), jobs, nodes, the scaler's lease and state included: turn the "
                        + "default off and keep TTL on (" + update(settings) + " --ttl -1)");
            }
        }

        /** The account's name for an {@code az} line: the first label of a *.documents.azure.* endpoint. */
        static String accountName(CosmosSettings settings) {
            String host = URI.create(settings.endpoint()).getHost();
            return host != null && host.contains(".documents.") ? host.substring(0, host.indexOf('.')) : "<account>";
        }

        static String update(CosmosSettings settings) {
            return "az cosmosdb sql container update --account-name " + accountName(settings)
                    + " --resource-group <group> "
                    + "--database-name " + settings.database() + " --name " + settings.container();
        }

        private static StoreException missing(CosmosSettings settings, CosmosException e) {
            String create = "az cosmosdb sql container create --account-name " + accountName(settings)
                    + " --resource-group <group> --database-name " + settings.database()
                    + " --name " + settings.container()
                    + " --partition-key-path /PoolName --ttl -1";
            if (e.getStatusCode() == 404) {
                return new StoreException(settings.describe() + " does not exist"
                        + (settings.createIfMissing() ? "" : " and store.cosmos.createIfMissing is false")
                        + ": create the database and the container (" + create + "), or set "
                        + "store.cosmos.createIfMissing = true with an identity allowed to create them", e);
            }
            if (e.getStatusCode() == 403) {
                return new StoreException(settings.describe() + ": this identity may not "
                        + (settings.createIfMissing() ? "create or read" : "read") + " it (403). Data-plane roles "
                        + "cannot create databases or containers: create them once with an account contributor ("
                        + create + ") and set store.cosmos.createIfMissing = false; grant this identity the "
                        + "Cosmos DB Built-in Data Contributor role", e);
            }
            if (e.getStatusCode() == 401) {
                return new StoreException(settings.describe() + ": the key or token was refused (401); check "
                        + "store.cosmos.auth and the key file or managed identity", e);
            }
            return new StoreException(settings.describe() + " cannot be opened: status " + e.getStatusCode()
                    + ": " + firstLine(e.getMessage()), e);
        }
    }
}
