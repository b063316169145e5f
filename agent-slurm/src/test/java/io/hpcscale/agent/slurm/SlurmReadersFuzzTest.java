package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.fuzz.ByteMutations;
import io.hpcscale.common.fuzz.FuzzTally;
import io.hpcscale.common.fuzz.HugeValues;
import io.hpcscale.common.fuzz.ParserFuzz;
import io.hpcscale.common.fuzz.SkipLog;
import io.hpcscale.common.fuzz.TreeMutations;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * squeue's and sinfo's JSON and pipe-separated outputs, damaged at random: every output is read, with the bad entries
 * skipped and named in one warning each, or (JSON only) refused as unreadable; never a crash. The tries come from
 * jqwik.tries.default (scripts/fuzz).
 */
class SlurmReadersFuzzTest {
    private static final FuzzTally JSON_JOBS = new FuzzTally("Slurm squeue --json jobs");
    private static final FuzzTally JSON_NODES = new FuzzTally("Slurm sinfo --json nodes");
    private static final FuzzTally PIPE_JOBS = new FuzzTally("Slurm squeue -o jobs");
    private static final FuzzTally PIPE_NODES = new FuzzTally("Slurm sinfo -N -o nodes");
    private static final List<String> JSON_JOB_FIXTURES = List.of("squeue-json_cloud-configuring.json",
            "final/squeue-json_t1-steady-running-pending-held.json");
    private static final List<String> JSON_NODE_FIXTURES = List.of("sinfo-json_4nodes-alloc-mixed.json",
            "final/sinfo-json_t2-draining-node4-cnode3.json");

    private SkipLog log;

    @BeforeProperty
    void captureSkips() {
        log = new SkipLog();
    }

    @AfterProperty
    void releaseSkips() {
        log.close();
    }

    @AfterContainer
    static void printTallies() {
        Stream.of(JSON_JOBS, JSON_NODES, PIPE_JOBS, PIPE_NODES).forEach(FuzzTally::print);
    }

    private static ParserFuzz.Read jsonJobs(byte[] output) throws Exception {
        return read(new SlurmJsonReader(new UnreadableEntryLog()).jobs(new ByteArrayInputStream(output),
                "squeue --json").result(), SlurmJob::id);
    }

    private static ParserFuzz.Read jsonNodes(byte[] output) throws Exception {
        return read(new SlurmJsonReader(new UnreadableEntryLog()).nodes(new ByteArrayInputStream(output),
                "sinfo --json").result(), SlurmNode::name);
    }

    /** Decoded as the adapter decodes it: invalid UTF-8 becomes U+FFFD. */
    private static BufferedReader lines(byte[] output) {
        return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(output), StandardCharsets.UTF_8));
    }

    private static ParserFuzz.Read pipeJobs(PipeFormat format, byte[] output) throws Exception {
        return read(new SlurmPipeReader(new UnreadableEntryLog(), ZoneOffset.UTC).jobs(lines(output), format),
                SlurmJob::id);
    }

    private static ParserFuzz.Read pipeNodes(byte[] output) throws Exception {
        return read(new SlurmPipeReader(new UnreadableEntryLog(), ZoneOffset.UTC).nodes(lines(output),
                new PipeFormat(SlurmFixtures.SINFO_EXTENDED)), SlurmNode::name);
    }

    private static <T> ParserFuzz.Read read(SlurmReadResult<T> result, Function<T, String> id) {
        return new ParserFuzz.Read(result.entries().stream().map(id).collect(Collectors.toSet()),
                result.unreadable().size());
    }

    private ParserFuzz fuzz(ParserFuzz.Parser parser) {
        return new ParserFuzz(parser, SchedulerReadException.class, log);
    }

    @Property
    void damagedJsonJobsAreReadSkippedOrRefused(@ForAll("damagedJsonJobs") byte[] output) throws Exception {
        JSON_JOBS.count(() -> fuzz(SlurmReadersFuzzTest::jsonJobs).outcome(output));
    }

    @Property
    void aMutatedJsonJobCostsOnlyItself(@ForAll("oneJsonJobMutated") TreeMutations.Mutated output)
            throws Exception {
        JSON_JOBS.count(() -> fuzz(SlurmReadersFuzzTest::jsonJobs).keepsTheOthers(output));
    }

    @Property
    void damagedJsonNodesAreReadSkippedOrRefused(@ForAll("damagedJsonNodes") byte[] output) throws Exception {
        JSON_NODES.count(() -> fuzz(SlurmReadersFuzzTest::jsonNodes).outcome(output));
    }

    @Property
    void aMutatedJsonNodeCostsOnlyItself(@ForAll("oneJsonNodeMutated") TreeMutations.Mutated output)
            throws Exception {
        JSON_NODES.count(() -> fuzz(SlurmReadersFuzzTest::jsonNodes).keepsTheOthers(output));
    }

    /** The pipe formats have no refusal: a line that cannot be read is skipped, whatever the others hold. */
    @Property
    void damagedPipeJobsAreReadOrSkipped(@ForAll("damagedPipeJobs") byte[] output) throws Exception {
        PipeFormat format = new PipeFormat(SlurmFixtures.SQUEUE_EXTENDED);
        PIPE_JOBS.count(() -> fuzz(o -> pipeJobs(format, o)).outcome(output));
    }

    @Property
    void damagedPipeNodesAreReadOrSkipped(@ForAll("damagedPipeNodes") byte[] output) throws Exception {
        PIPE_NODES.count(() -> fuzz(SlurmReadersFuzzTest::pipeNodes).outcome(output));
    }

    @Example
    void aJobHoldingFiftyMegabytesOrNestedAHundredThousandDeepIsSkippedAndTheOthersRead() throws Exception {
        String meta = "\"meta\":{\"plugin\":{\"type\":\"openapi/v0.0.38\"},\"Slurm\":{\"release\":\"22.05.8\"}}";
        String valid = "{\"job_id\":%d,\"job_state\":\"PENDING\",\"partition\":\"p\"}";
        String output = "{" + meta + ",\"errors\":[],\"jobs\":["
                + "{\"job_id\":1,\"job_state\":\"PENDING\",\"comment\":" + HugeValues.string(50 << 20) + "},"
                + valid.formatted(2) + ","
                + "{\"job_id\":3,\"job_state\":\"PENDING\",\"x\":" + HugeValues.nestedArrays(100_000) + "},"
                + valid.formatted(4) + "]}";
        SlurmReadResult<SlurmJob> jobs = new SlurmJsonReader(new UnreadableEntryLog()).jobs(
                new ByteArrayInputStream(output.getBytes(StandardCharsets.ISO_8859_1)), "squeue --json").result();
        assertEquals(Set.of("2", "4"), jobs.entries().stream().map(SlurmJob::id).collect(Collectors.toSet()));
        assertEquals(2, jobs.unreadable().size());
        assertEquals(2, log.take().size());
    }

    @Example
    void aPipeLineOfFiftyMegabytesIsSkippedAndTheOthersRead() throws Exception {
        byte[] fixture = SlurmFixtures.text(SlurmFixtures.STEADY.formatted("squeue-o-extended-r") + ".txt")
                .getBytes(StandardCharsets.UTF_8);
        byte[] output = (HugeValues.string(50 << 20) + "\n" + new String(fixture, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.ISO_8859_1);
        ParserFuzz.Read read = pipeJobs(new PipeFormat(SlurmFixtures.SQUEUE_EXTENDED), output);
        assertEquals(pipeJobs(new PipeFormat(SlurmFixtures.SQUEUE_EXTENDED), fixture).entries(), read.entries());
        assertEquals(1, read.skipped());
        String warning = log.take().get(0);
        assertTrue(warning.startsWith("skipping job on line 1:") && warning.length() < 1000, warning);
    }

    @Provide
    Arbitrary<byte[]> damagedJsonJobs() {
        return ByteMutations.of(fixtures(JSON_JOB_FIXTURES));
    }

    @Provide
    Arbitrary<TreeMutations.Mutated> oneJsonJobMutated() {
        return TreeMutations.ofEntries(fixtures(JSON_JOB_FIXTURES), "jobs");
    }

    @Provide
    Arbitrary<byte[]> damagedJsonNodes() {
        return ByteMutations.of(fixtures(JSON_NODE_FIXTURES));
    }

    @Provide
    Arbitrary<TreeMutations.Mutated> oneJsonNodeMutated() {
        return TreeMutations.ofEntries(fixtures(JSON_NODE_FIXTURES), "nodes");
    }

    @Provide
    Arbitrary<byte[]> damagedPipeJobs() {
        return ByteMutations.of(fixtures(List.of(SlurmFixtures.STEADY.formatted("squeue-o-extended-r") + ".txt",
                SlurmFixtures.DRAINING.formatted("squeue-o-extended-r") + ".txt")));
    }

    @Provide
    Arbitrary<byte[]> damagedPipeNodes() {
        return ByteMutations.of(fixtures(List.of(SlurmFixtures.STEADY.formatted("sinfo-N-o-extended") + ".txt",
                SlurmFixtures.DRAINING.formatted("sinfo-N-o-extended") + ".txt")));
    }

    private static List<byte[]> fixtures(List<String> names) {
        return names.stream().map(name -> SlurmFixtures.text(name).getBytes(StandardCharsets.UTF_8)).toList();
    }
}
