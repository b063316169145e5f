package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.scaler.Programs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example decision of docs/examples, compiled and packed as an administrator would, found through its jar. */
class CustomDecisionJarTest {
    private static final Path EXAMPLE = Path.of("../docs/examples/SpareNode.java");

    @TempDir
    static Path dir;
    static Path jar;

    @BeforeAll
    static void buildTheExampleJar() throws IOException {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), EXAMPLE.toString());
        assertEquals(0, status, "docs/examples/SpareNode.java compiles against the scaler");
        jar = dir.resolve("site-decisions.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                put(out, classes.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
            put(out, "META-INF/services/" + CustomDecision.class.getName(),
                    "org.example.hpcscale.SpareNode\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    private static Settings settings(String jars) {
        return new ConfigLoader(ConfigCatalog.installed()).fromMap(Map.of(CustomDecisions.JARS_SETTING, jars),
                Programs.SCALER);
    }

    @Test
    void theExampleKeepsTheShortestIdleNodeAsItsSpareAndIdleDrainTakesTheOthers() {
        Map<String, CustomDecision> installed = CustomDecisions.installed(settings(jar.toString()));
        assertEquals(List.of("spareNode"), List.copyOf(installed.keySet()));
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(10)));
        pool.decisions = "scaleUp, drainCompletion, spareNode, idleDrain";
        Plan plan = new Planner(Duration.ofMinutes(6), installed).plan(pool.build()).plan();
        assertEquals(List.of(node(1)), plan.drains().stream().map(Plan.DrainRequest::node).toList(),
                "at " + NOW + " node 2 is the spare; without it both are drained");
        pool.decisions = "scaleUp, drainCompletion, idleDrain";
        assertEquals(2, new Planner(Duration.ofMinutes(6), installed).plan(pool.build()).plan().drains().size());
    }

    @Test
    void theExampleStartsASpareWhenNoNodeIsIdle() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(2);
        pool.decisions = "scaleUp, drainCompletion, spareNode, idleDrain";
        Plan plan = new Planner(Duration.ofMinutes(6), CustomDecisions.installed(settings(jar.toString())))
                .plan(pool.build()).plan();
        assertEquals(1, plan.starts().size());
        assertEquals("spareNode: a spare node for working hours", plan.starts().get(0).reason());
    }

    @Test
    void aJarThatCannotBeReadStopsTheScalerNamingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> CustomDecisions.installed(settings(jar + ", /nonexistent/policy.jar")));
        assertEquals(List.of("scaler.decisionJars names /nonexistent/policy.jar, which cannot be read: correct the "
                + "path, or let the scaler's user read it"), e.problems());
    }

    @Test
    void withoutTheSettingOnlyTheClassPathIsSearched() {
        Settings none = new ConfigLoader(ConfigCatalog.installed()).fromMap(Map.of(), Programs.SCALER);
        assertTrue(CustomDecisions.installed(none).isEmpty());
    }
}
