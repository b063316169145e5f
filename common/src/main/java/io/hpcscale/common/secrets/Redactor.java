package io.hpcscale.common.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes secrets out of text bound for logs, events, heartbeats and messages: what hpcscale records of the commands
 * it runs (their arguments and stderr) may otherwise carry a password, an account key or a SAS token an
 * administrator wrote into a command line. Two nets: the value of an option whose name looks secret (built-in names,
 * and those named in {@code command.secretOptions}), and anything shaped like a known secret (a key=value of a
 * connection string or query, a bearer token, a JWT, a storage account key).
 */
public final class Redactor {
    public static final String MARK = "[redacted]";
    private static final String SECRET_WORDS = "password|passwd|pwd|secret|token|key|sas|credential|sig";
    private static final Pattern SECRET_OPTION = Pattern.compile("-{1,2}[\\w.-]*(" + SECRET_WORDS + ")[\\w.-]*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern OPTION_WITH_VALUE = Pattern.compile("(-{1,2}[\\w.-]*(?:" + SECRET_WORDS
            + ")[\\w.-]*)=(\\S+)", Pattern.CASE_INSENSITIVE);
    /** A name ending in a secret word, then = or :, as in connection strings, queries and configuration dumps. */
    private static final Pattern KEY_VALUE = Pattern.compile("\\b([\\w.-]*(?:" + SECRET_WORDS
            + "|signature))(\\s*[=:]\\s*)(\"[^\"]*\"|'[^']*'|[^\\s;&,\"']+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}");
    private static final Pattern JWT = Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*");
    private static final Pattern ACCOUNT_KEY = Pattern.compile("\\b[A-Za-z0-9+/]{86}==");
    private static final Set<String> MARKED = new CopyOnWriteArraySet<>();

    private Redactor() {
    }

    /**
     * Options the administrator marks secret ({@code command.secretOptions}): the argument after each, or its
     * {@code =value}, is never shown. Process-wide, like the log it protects.
     */
    public static void markSecretOptions(Set<String> options) {
        options.forEach(o -> MARKED.add(o.strip().toLowerCase(Locale.ROOT)));
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
        String out = replaceValue(OPTION_WITH_VALUE, text, 1, "=");
        out = replaceValue(KEY_VALUE, out, 1, null);
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MARK));
        out = JWT.matcher(out).replaceAll(MARK);
        out = ACCOUNT_KEY.matcher(out).replaceAll(MARK);
        for (String option : MARKED) {
            out = Pattern.compile("(?i)(" + Pattern.quote(option) + ")(=|\\s+)(\\S+)").matcher(out)
                    .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2) + MARK));
        }
        return out;
    }

    private static String replaceValue(Pattern pattern, String text, int nameGroup, String separator) {
        return pattern.matcher(text).replaceAll(m -> Matcher.quoteReplacement(m.group(nameGroup)
                + (separator != null ? separator : m.group(2)) + MARK));
    }

    private static boolean isSecretOption(String arg) {
        return arg.startsWith("-") && (MARKED.contains(arg.toLowerCase(Locale.ROOT))
                || SECRET_OPTION.matcher(arg).matches());
    }
}
