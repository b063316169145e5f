package io.hpcscale.common.cli;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Program;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.logging.LogFormat;
import io.hpcscale.common.logging.LogLevels;
import io.hpcscale.common.logging.LogOutput;
import io.hpcscale.common.secrets.Redactor;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The top command of every hpcscale program: {@code --config}, {@code --log-format}, {@code --version},
 * {@code --help}, and the subcommands the program adds. {@code --config} and {@code --log-format} may be given
 * before or after the subcommand.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = Version.class, sortOptions = false,
        usageHelpAutoWidth = true)
public final class RootCommand implements Runnable {
    private final Program program;

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "The properties file (default: /etc/hpcscale/hpcscale.properties).")
    private Path configFile = ConfigLoader.DEFAULT_PATH;

    @Option(names = "--log-format", paramLabel = "text|json", scope = ScopeType.INHERIT,
            converter = LogFormatConverter.class,
            description = "How log lines are written on stderr; overrides log.format (default: text).")
    private LogFormat logFormat;

    public RootCommand(Program program) {
        this.program = program;
    }

    public Program program() {
        return program;
    }

    public Path configFile() {
        return configFile;
    }

    /** Loads and validates the configuration with the environment's overrides; applies its log level and format. */
    public Settings loadSettings() {
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).load(configFile, System.getenv(), program);
        LogLevels.apply(settings);
        LogOutput.use(logFormat == null ? LogFormat.of(settings) : logFormat);
        settings.optionalString("command.secretOptions").ifPresent(options -> Redactor.markSecretOptions(
                Arrays.stream(options.split(",")).map(String::strip).filter(o -> !o.isEmpty())
                        .collect(Collectors.toSet())));
        return settings;
    }

    /** Refuses a format picocli would otherwise only name by its enum constant, in upper case. */
    static final class LogFormatConverter implements ITypeConverter<LogFormat> {
        @Override
        public LogFormat convert(String value) {
            return LogFormat.fromWireName(value).orElseThrow(() -> new TypeConversionException(
                    "expected text or json, as for the setting " + LogFormat.SETTING + ", but was '" + value + "'"));
        }
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "name a subcommand: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
