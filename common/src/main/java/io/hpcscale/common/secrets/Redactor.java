package io.hpcscale.common.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes secrets out of text bound for logs, events, heartbeats, health checks and messages: what hpcscale records
 * of the commands it runs (their arguments and stderr) may otherwise carry a password, an account key or a SAS
 * token an administrator wrote into a command line. Two nets: the value of an option whose name ends in a secret
 * word ({@code --password}, {@code --api-token}, {@code --account-key}) or that {@code command.secretOptions}
 * names, and anything shaped like a known secret (a secret {@code name=value} of a connection string or query, a
 * bearer token, a JWT, a storage account key). Names must end in the word, so that {@code --keyvault},
 * {@code --signal} or {@code --disable-password-authentication} keep their next argument.
 */
public final class Redactor {
    public static final String MARK = "[redacted]";
    private static final String SECRET_WORDS = "password|passwd|pwd|pass|secret|token|key|sas|sig|signature"
            + "|credential|credentials|apikey|connectionstring";
    /** An option whose last word is a secret word: -p is not one, --ipmi-pass and --api-token are. */
    private static final Pattern SECRET_OPTION = Pattern.compile("-{1,2}(?:[\\w.]*[-_.])?(?:" + SECRET_WORDS + ")",
            Pattern.CASE_INSENSITIVE);
    /** The same in free text, with its value after = or blanks (a command line quoted in a message). */
    private static final Pattern OPTION_IN_TEXT = Pattern.compile("(?<![\\w-])(-{1,2}(?:[\\w.]*[-_.])?(?:"
            + SECRET_WORDS + "))(=|\\s+)(?!-)(\"[^\"]*\"|'[^']*'|\\S+)", Pattern.CASE_INSENSITIVE);
    /** name=value where the name ends in a secret word, as in connection strings, queries and dumps. */
    private static final Pattern KEY_VALUE = Pattern.compile("\\b((?:[A-Za-z][\\w.-]*?)?(?:" + SECRET_WORDS
            + "))=(\"[^\"]*\"|'[^']*'|[^\\s;&,\"']+)", Pattern.CASE_INSENSITIVE);
    /** "password: value" as configuration files and some tools print it. */
    private static final Pattern COLON_VALUE = Pattern.compile("\\b((?:client_)?(?:password|passwd|secret))"
            + "(\\s*:\\s*)(\"[^\"]*\"|'[^']*'|\\S+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}");
    private static final Pattern JWT = Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*");
    private static final Pattern ACCOUNT_KEY = Pattern.compile("\\b[A-Za-z0-9+/]{86}==");
    private static final Set<String> MARKED = new CopyOnWriteArraySet<>();
    /** The marked options with their values, compiled once: text() runs for every event and heartbeat. */
    private static volatile Pattern markedWithValue;

    private Redactor() {
    }

    /**
     * Options the administrator marks secret ({@code command.secretOptions}), spelt exactly (-P is not -p): the
     * argument after each, or its {@code =value}, is never shown. Process-wide, like the log it protects.
     */
    public static synchronized void markSecretOptions(Set<String> options) {
        options.forEach(o -> MARKED.add(o.strip()));
        markedWithValue = MARKED.isEmpty() ? null : Pattern.compile("(?<![\\w-])(" + String.join("|",
                MARKED.stream().map(Pattern::quote).toList()) + ")(=|\\s+)(\\S+)");
    }

    /** A command line with the values of secret options hidden, for display. */
    public static List<String> argv(List<String> argv) {
        List<String> shown = new ArrayList<>(argv.size());
        boolean hideNext = false;
        for (String arg : argv) {
            if (hideNext) {
                shown.add(MARK);
                hideNext = false;
                continue;
            }
            int equals = arg.indexOf('=');
            String option = equals > 0 ? arg.substring(0, equals) : arg;
            if (isSecretOption(option)) {
                if (equals > 0) {
                    shown.add(option + "=" + MARK);
                } else {
                    shown.add(arg);
                    hideNext = true;
                }
            } else {
                shown.add(text(arg));
            }
        }
        return shown;
    }

    /** Text with anything shaped like a secret hidden. */
    public static String text(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = OPTION_IN_TEXT.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2)
                + MARK));
        out = KEY_VALUE.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + "=" + MARK));
        out = COLON_VALUE.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2) + MARK));
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MARK));
        out = JWT.matcher(out).replaceAll(MARK);
        out = ACCOUNT_KEY.matcher(out).replaceAll(MARK);
        Pattern marked = markedWithValue;
        if (marked != null) {
            out = marked.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2) + MARK));
        }
        return out;
    }

    private static boolean isSecretOption(String arg) {
        return arg.startsWith("-") && (MARKED.contains(arg) || SECRET_OPTION.matcher(arg).matches());
    }
}
