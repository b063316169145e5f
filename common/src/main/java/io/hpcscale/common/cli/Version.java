package io.hpcscale.common.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** hpcscale's version, from the build. */
public final class Version implements IVersionProvider {

    public static String current() {
        Properties properties = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/io/hpcscale/common/version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return properties.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"${COMMAND-FULL-NAME} " + current()};
    }
}
