package io.hpcscale.cloud.azure.removal;

import io.hpcscale.common.config.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A storage connection string: it holds the account key or a SAS, so it is read only from a file no other user can
 * read, never shown by {@link #toString()}, and {@link #redact} takes it out of any text before that text is
 * logged or shown.
 */
public final class ConnectionStringSecret {
    private static final Pattern SECRET_PARTS = Pattern.compile("(?i)(?:AccountKey|SharedAccessSignature)=([^;]+)");
    private static final Pattern SAS_SIGNATURE = Pattern.compile("(?i)(sig=)[^&\\s\"'<]+");

    private final String value;
    private final String source;

    private ConnectionStringSecret(String value, String source) {
        this.value = value;
        this.source = source;
    }

    /**
     * Reads it from a file readable by its owner only.
     *
     * @param setting how the user named the file (a setting or an option), for the messages
     * @throws ConfigException saying what is wrong with the file and what to do; never its content
     */
    public static ConnectionStringSecret readFile(Path file, String setting) {
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            if (mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ)) {
                throw new ConfigException(setting + " " + file + " is readable by other users (mode "
                        + PosixFilePermissions.toString(mode) + "): the connection string holds the storage "
                        + "account's key or a SAS. Make it readable by its user only: chmod 600 " + file);
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (text.isEmpty()) {
                throw new ConfigException(setting + " " + file + " is empty: put the storage account's connection "
                        + "string in it (az storage account show-connection-string --name <account>)");
            }
            return new ConnectionStringSecret(text, setting + " " + file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(setting + " " + file + " does not exist: create it, holding the storage "
                    + "account's connection string, readable by the user that runs this program only (chmod 600)");
        } catch (IOException e) {
            throw new ConfigException(setting + " " + file + " cannot be read (" + e.getMessage() + "): it must be "
                    + "readable by the user that runs this program");
        }
    }

    /** Where it was read from, for messages: the setting or option and the file. */
    public String source() {
        return source;
    }

    /** Only for handing to the storage SDK. */
    String reveal() {
        return value;
    }

    /** The text with this connection string, its key and SAS, and any SAS signature replaced by {@code ***}. */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        List<String> secrets = new ArrayList<>();
        secrets.add(value);
        Matcher parts = SECRET_PARTS.matcher(value);
        while (parts.find()) {
            secrets.add(parts.group(1));
        }
        String redacted = text;
        for (String secret : secrets) {
            redacted = redacted.replace(secret, "***");
        }
        return SAS_SIGNATURE.matcher(redacted).replaceAll("$1***");
    }

    @Override
    public String toString() {
        return "(a connection string, not shown)";
    }
}
