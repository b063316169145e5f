package io.hpcscale.cloud.azure.removal;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import io.hpcscale.scaler.removal.ReceiveLimits;

/**
 * The scaler's {@code azure.removalQueue.*} settings: the queue nodes ask to be removed on, and how its messages
 * are handled.
 *
 * @param maxTries          a message received more often than this without being deleted is poison
 * @param visibilityTimeout how long a received message stays hidden from the next receive
 */
public record RemovalQueueSettings(QueueAccess access, int maxTries, Duration visibilityTimeout) {
    static final String URL = "azure.removalQueue.url";
    static final String CONNECTION_STRING_FILE = "azure.removalQueue.connectionStringFile";
    static final String QUEUE = "azure.removalQueue.queue";
    static final String MAX_TRIES = "azure.removalQueue.maxTries";
    static final String VISIBILITY_TIMEOUT = "azure.removalQueue.visibilityTimeout";

    private static final Pattern QUEUE_NAME = Pattern.compile("[a-z0-9](?:[a-z0-9]|-(?!-))*[a-z0-9]");

    /**
     * Whether a removal queue is configured, from the settings alone: the connection string file, a secret, is not
     * read (a user who may read the configuration but not the secret can still set a pool's count).
     */
    public static boolean configured(Settings settings) {
        return settings.isSet(URL) || settings.isSet(CONNECTION_STRING_FILE);
    }

    /**
     * @return empty when neither a queue URL nor a connection string file is set: nodes cannot ask to be removed
     * @throws ConfigException naming the setting that is missing, contradicts another or cannot be used
     */
    public static Optional<RemovalQueueSettings> from(Settings settings) {
        Optional<String> url = settings.optionalString(URL);
        Optional<String> file = settings.optionalString(CONNECTION_STRING_FILE);
        Optional<String> queue = settings.optionalString(QUEUE);
        if (url.isEmpty() && file.isEmpty()) {
            if (queue.isPresent()) {
                throw new ConfigException(QUEUE + " is set but neither " + URL + " nor " + CONNECTION_STRING_FILE
                        + " is: set one of them to turn on removal requests, or remove " + QUEUE);
            }
            return Optional.empty();
        }
        if (url.isPresent() && file.isPresent()) {
            throw new ConfigException(URL + " and " + CONNECTION_STRING_FILE + " are both set: set " + URL
                    + " to sign in with the scaler's Azure identity, or " + CONNECTION_STRING_FILE + " and " + QUEUE
                    + " to use a connection string, not both");
        }
        QueueAccess access;
        if (url.isPresent()) {
            if (queue.isPresent()) {
                throw new ConfigException(QUEUE + " is set with " + URL + ", which already names the queue: remove "
                        + QUEUE);
            }
            access = new QueueAccess.WithIdentity(queueUrl(url.get(), URL));
        } else {
            String name = queue.orElseThrow(() -> new ConfigException(QUEUE + " is required with "
                    + CONNECTION_STRING_FILE + ": the name of the queue in that storage account"));
            checkName(name, QUEUE);
            access = new QueueAccess.WithConnectionString(
                    ConnectionStringSecret.readFile(Path.of(file.get()), CONNECTION_STRING_FILE), name);
        }
        return Optional.of(new RemovalQueueSettings(access, settings.intValue(MAX_TRIES),
                visibilityTimeout(settings.duration(VISIBILITY_TIMEOUT))));
    }

    private static Duration visibilityTimeout(Duration timeout) {
        if (timeout.toNanos() % 1_000_000_000L != 0 || timeout.compareTo(ReceiveLimits.LONGEST_VISIBILITY) > 0) {
            throw new ConfigException(VISIBILITY_TIMEOUT + " must be whole seconds, at most 7d (the queue service's "
                    + "limit), not " + timeout.toMillis() + "ms");
        }
        return timeout;
    }

    /**
     * A queue URL fit for signing in with a token: https, naming the queue, no query.
     *
     * @param setting how the user named it (a setting or an option), for the messages
     * @throws ConfigException saying what is wrong; never with the URL's query, which could be a SAS
     */
    static URI queueUrl(String text, String setting) {
        URI uri;
        try {
            uri = URI.create(text.strip());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(setting + " is not a URL: expected https://<account>.queue.core.windows.net/"
                    + "<queue>");
        }
        String shown = uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new ConfigException(setting + " " + shown + " carries a query (a SAS?): a secret does not belong "
                    + "there. Give the queue's URL alone and sign in with an identity, or use a connection string "
                    + "file");
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new ConfigException(setting + " " + shown + " must be an https:// URL: tokens are sent only over "
                    + "HTTPS. Expected https://<account>.queue.core.windows.net/<queue>");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("^/+|/+$", "");
        String[] segments = path.split("/");
        // One segment on the service's own host names; an IP-style endpoint (Azurite) puts the account first.
        if (path.isEmpty() || segments.length > 2) {
            throw new ConfigException(setting + " " + shown + " does not name a queue: expected "
                    + "https://<account>.queue.core.windows.net/<queue>");
        }
        checkName(segments[segments.length - 1], setting);
        return URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getRawAuthority() + "/" + path);
    }

    /**
     * The service's rules for queue names, with room left for the poison queue's suffix.
     *
     * @throws ConfigException naming the rule broken
     */
    static String checkName(String name, String setting) {
        int longest = 63 - QueueAccess.POISON_SUFFIX.length();
        if (name.length() < 3 || name.length() > longest || !QUEUE_NAME.matcher(name).matches()) {
            throw new ConfigException(setting + ": '" + name + "' is not a queue name this can use: 3 to " + longest
                    + " lower-case letters, digits and single hyphens, starting and ending with a letter or digit "
                    + "(the poison queue's name adds " + QueueAccess.POISON_SUFFIX + " and may have at most 63)");
        }
        return name;
    }
}
