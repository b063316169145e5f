package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.pool.PoolConfig;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/** The administrator's decisions, found in their jars, and the check that every one a pool names is there. */
public final class CustomDecisions {
    public static final String JARS_SETTING = "scaler.decisionJars";
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

    private CustomDecisions() {
    }

    /**
     * Every {@link CustomDecision} on the class path and in the jars {@value #JARS_SETTING} names, by name.
     *
     * @throws ConfigException naming a jar that cannot be read or a decision that cannot be made
     */
    public static Map<String, CustomDecision> installed(Settings settings) {
        List<URL> jars = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.optionalString(JARS_SETTING).map(s -> s.split(",")).orElse(new String[0])) {
            Path jar = Path.of(name.strip());
            if (!Files.isReadable(jar)) {
                problems.add(JARS_SETTING + " names " + jar + ", which cannot be read: correct the path, or let the "
                        + "scaler's user read it");
                continue;
            }
            try {
                jars.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                problems.add(JARS_SETTING + " names " + jar + ", which is not a file path");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        ClassLoader loader = new URLClassLoader(jars.toArray(URL[]::new), CustomDecisions.class.getClassLoader());
        try {
            return byName(ServiceLoader.load(CustomDecision.class, loader).stream().map(ServiceLoader.Provider::get)
                    .toList());
        } catch (ServiceConfigurationError e) {
            throw new ConfigException("a custom decision cannot be made (" + e.getMessage() + "): check the jars of "
                    + JARS_SETTING + " and their META-INF/services/" + CustomDecision.class.getName());
        }
    }

    /** @throws ConfigException when two have one name, or a name is not one a pool's setting can hold */
    static Map<String, CustomDecision> byName(List<CustomDecision> decisions) {
        Map<String, CustomDecision> byName = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (CustomDecision decision : decisions) {
            String name = decision.name();
            String where = decision.getClass().getName() + " (" + location(decision) + ")";
            if (name == null || !NAME.matcher(name).matches() || PoolConfig.OWN_DECISIONS.contains(name)) {
                problems.add("the decision " + where + " is named '" + name + "': a name is a letter followed by "
                        + "letters and digits, and not one of the scaler's own (" + PoolConfig.OWN_DECISIONS + ")");
            } else if (byName.containsKey(name)) {
                problems.add("two decisions are named " + name + ": " + where + " and "
                        + byName.get(name).getClass().getName() + " (" + location(byName.get(name))
                        + "); remove one jar from the class path");
            } else {
                byName.put(name, decision);
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return byName;
    }

    /** @throws ConfigException naming each pool's decision that no installed jar provides */
    public static void check(Map<String, PoolConfig> pools, Map<String, CustomDecision> installed) {
        List<String> problems = new ArrayList<>();
        for (PoolConfig pool : pools.values()) {
            for (String name : pool.customDecisions()) {
                if (!installed.containsKey(name)) {
                    problems.add("pool." + pool.name() + ".decisions names " + name + ", which no jar of "
                            + JARS_SETTING + " or the class path provides (installed: " + (installed.isEmpty() ? "none"
                                    : String.join(", ", installed.keySet())) + "): name its jar in "
                            + JARS_SETTING + ", or correct the name");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    private static String location(CustomDecision decision) {
        var source = decision.getClass().getProtectionDomain().getCodeSource();
        return source == null ? "unknown jar" : source.getLocation().toString();
    }
}
