package io.hpcscale.common.cli;

import io.hpcscale.common.config.Component;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.logging.LogFormat;
import io.hpcscale.common.logging.LogLevels;
import io.hpcscale.common.logging.LogOutput;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The top command of every hpcscale program: {@code --config}, {@code --version}, {@code --help}, and the
 * subcommands the program adds. {@code --config} may be given before or after the subcommand.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = Version.class, sortOptions = false,
        usageHelpAutoWidth = true)
public final class RootCommand implements Runnable {
    private final Component component;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "The properties file (default: /etc/hpcscale/hpcscale.properties).")
    private Path configFile = ConfigLoader.DEFAULT_PATH;

    public RootCommand(Component component) {
        this.component = component;
    }

    public Component component() {
        return component;
    }

    public Path configFile() {
        return configFile;
    }

    /** Loads and validates the configuration with the environment's overrides; applies its log level and format. */
    public Settings loadSettings() {
        Settings settings = new ConfigLoader(ConfigCatalog.standard()).load(configFile, System.getenv(), component);
        LogLevels.apply(settings);
        LogOutput.use(LogFormat.of(settings));
        return settings;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "name a subcommand: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
