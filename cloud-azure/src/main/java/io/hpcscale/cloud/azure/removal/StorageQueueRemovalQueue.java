package io.hpcscale.cloud.azure.removal;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.Context;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import com.azure.storage.queue.QueueClient;
import com.azure.storage.queue.QueueClientBuilder;
import com.azure.storage.queue.QueueMessageEncoding;
import com.azure.storage.queue.models.QueueErrorCode;
import com.azure.storage.queue.models.QueueMessageItem;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.cloud.azure.AzureCredentials;
import io.hpcscale.cloud.azure.AzureSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.hpcscale.scaler.removal.Delivery;
import io.hpcscale.scaler.removal.ReceiveLimits;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalMessageCodec;
import io.hpcscale.scaler.removal.RemovalQueue;
import io.hpcscale.scaler.removal.RemovalQueueException;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.SetAside;

/**
 * The removal queue on Azure Storage, through the storage SDK on the JDK's HTTP client. The SDK retries refused
 * connections, timeouts, 429 and 5xx a few times, quickly, so that a scaler cycle or a node's command is not held
 * for long (a call is bounded by its tries' timeouts and the waits between them); what still fails comes out as a
 * {@link RemovalQueueException}. Messages are sent as plain text (JSON).
 * The poison queue ({@code <queue>-poison}) is created when a message is set aside and it does not exist.
 */
public final class StorageQueueRemovalQueue implements RemovalQueue {
    private static final Logger log = LoggerFactory.getLogger(StorageQueueRemovalQueue.class);
    /** Bound on one HTTP request; the SDK then tries again, up to {@link #TRIES} in all. */
    private static final Duration TRY_TIMEOUT = Duration.ofSeconds(20);
    private static final int TRIES = 3;

    private final QueueClient queue;
    private final QueueClient poison;
    private final int maxTries;
    private final Clock clock;
    private final RemovalMessageCodec codec = new RemovalMessageCodec();
    private final String description;
    private final QueueErrors errors;
    private final QueueErrors poisonErrors;
    private final String poisonDescription;

    StorageQueueRemovalQueue(QueueClient queue, QueueClient poison, boolean signedInWithToken,
            UnaryOperator<String> redact, int maxTries, Clock clock) {
        this.queue = queue;
        this.poison = poison;
        this.maxTries = maxTries;
        this.clock = clock;
        this.description = "queue " + queue.getQueueName() + " of storage account " + queue.getAccountName();
        this.errors = new QueueErrors(description, signedInWithToken, redact);
        this.poisonDescription = "poison queue " + poison.getQueueName() + " of storage account "
                + poison.getAccountName();
        this.poisonErrors = new QueueErrors(poisonDescription, signedInWithToken, redact);
    }

    /**
     * The scaler's removal queue, signed in to like Resource Manager ({@code azure.credential}) when it is given by
     * URL.
     *
     * @param settings the whole configuration, for the Azure sign-in
     */
    public static StorageQueueRemovalQueue open(RemovalQueueSettings queue, Settings settings, Clock clock) {
        HttpClient http = httpClient();
        TokenCredential credential = queue.access() instanceof QueueAccess.WithIdentity
                ? AzureCredentials.create(AzureSettings.from(settings), http) : null;
        return open(queue.access(), credential, http, queue.maxTries(), clock);
    }

    /** @param credential how to sign in when the queue is given by URL; not used with a connection string */
    static StorageQueueRemovalQueue open(QueueAccess access, TokenCredential credential, HttpClient http,
            int maxTries, Clock clock) {
        if (access instanceof QueueAccess.WithIdentity identity) {
            return new StorageQueueRemovalQueue(
                    builder(http).endpoint(identity.queueUrl().toString()).credential(credential).buildClient(),
                    builder(http).endpoint(identity.serviceUrl() + "/" + identity.queue() + QueueAccess.POISON_SUFFIX)
                            .credential(credential).buildClient(),
                    true, UnaryOperator.identity(), maxTries, clock);
        }
        QueueAccess.WithConnectionString keyed = (QueueAccess.WithConnectionString) access;
        ConnectionStringSecret secret = keyed.connectionString();
        try {
            return new StorageQueueRemovalQueue(
                    builder(http).connectionString(secret.reveal()).queueName(keyed.queue()).buildClient(),
                    builder(http).connectionString(secret.reveal()).queueName(keyed.queue() + QueueAccess.POISON_SUFFIX)
                            .buildClient(),
                    false, secret::redact, maxTries, clock);
        } catch (IllegalArgumentException e) {
            // The SDK's own words may quote the string; only its kind of problem is passed on.
            throw new ConfigException(secret.source() + " holds no connection string the storage client can use: "
                    + "expected DefaultEndpointsProtocol=https;AccountName=<account>;AccountKey=<key>;"
                    + "EndpointSuffix=core.windows.net (or a SharedAccessSignature instead of the key)");
        }
    }

    /** The JDK's HTTP client, as the scaler's other Azure clients use: it trusts what the JVM trusts. */
    static HttpClient httpClient() {
        return new JdkHttpClientBuilder(java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)))
                .responseTimeout(TRY_TIMEOUT).build();
    }

    private static QueueClientBuilder builder(HttpClient http) {
        return new QueueClientBuilder().httpClient(http).messageEncoding(QueueMessageEncoding.NONE)
                .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, TRIES,
                        (int) TRY_TIMEOUT.toSeconds(), 500L, 4000L, null));
    }

    @Override
    public String send(RemovalRequest request) throws RemovalQueueException {
        try {
            return queue.sendMessageWithResponse(codec.encode(request), null, null, null, Context.NONE)
                    .getValue().getMessageId();
        } catch (RuntimeException e) {
            throw errors.map("send a removal request to", e);
        }
    }

    @Override
    public List<RemovalMessage> receive(int max, Duration visibilityTimeout) throws RemovalQueueException {
        ReceiveLimits.check(max, visibilityTimeout);
        List<RemovalMessage> received = new ArrayList<>();
        try {
            for (QueueMessageItem item : queue.receiveMessages(max, visibilityTimeout, null, Context.NONE)) {
                Instant inserted = item.getInsertionTime() == null ? null : item.getInsertionTime().toInstant();
                Delivery delivery = new Delivery(item.getMessageId(), item.getPopReceipt(), item.getDequeueCount(),
                        inserted);
                String body = item.getBody() == null ? "" : item.getBody().toString();
                received.add(RemovalMessage.of(delivery, body, maxTries, codec));
            }
        } catch (RuntimeException e) {
            throw errors.map("receive messages from", e);
        }
        return received;
    }

    @Override
    public boolean delete(RemovalMessage message) throws RemovalQueueException {
        Delivery delivery = message.delivery();
        try {
            queue.deleteMessageWithResponse(delivery.messageId(), delivery.popReceipt(), null, Context.NONE);
            return true;
        } catch (RuntimeException e) {
            if (QueueErrors.notOursAnymore(e)) {
                return false;
            }
            throw errors.map("delete message " + delivery.messageId() + " from", e);
        }
    }

    @Override
    public boolean setAside(RemovalMessage message, String reason) throws RemovalQueueException {
        Delivery delivery = message.delivery();
        String copy = codec.encode(new SetAside(delivery.messageId(), delivery.dequeueCount(), delivery.insertedAt(),
                clock.instant(), reason, message.body()));
        try {
            sendToPoisonQueue(copy);
        } catch (RuntimeException e) {
            throw poisonErrors.map("copy message " + delivery.messageId() + " to", e);
        }
        return delete(message);
    }

    /** Creates the poison queue only when missing: an identity that may not create queues can use one made for it. */
    private void sendToPoisonQueue(String copy) {
        try {
            poison.sendMessageWithResponse(copy, null, null, null, Context.NONE);
        } catch (RuntimeException e) {
            if (!QueueErrors.is(e, QueueErrorCode.QUEUE_NOT_FOUND)) {
                throw e;
            }
            if (poison.createIfNotExists()) {
                log.info("created {} for removal messages that cannot be carried out", poisonDescription);
            }
            poison.sendMessageWithResponse(copy, null, null, null, Context.NONE);
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        // The SDK's clients hold nothing to release; the JDK's HTTP client closes its idle connections itself.
    }
}
