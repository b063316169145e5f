package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandOutputTooLargeException;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.fuzz.ByteMutations;
import io.hpcscale.common.fuzz.FuzzTally;
import io.hpcscale.common.fuzz.HugeValues;
import io.hpcscale.common.fuzz.ParserFuzz;
import io.hpcscale.common.fuzz.SkipLog;
import io.hpcscale.common.fuzz.TreeMutations;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
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
 * qstat's and pbsnodes' JSON, damaged at random: every output is read, with the bad entries skipped and named in one
 * warning each, or refused as unreadable; never a crash. The tries come from jqwik.tries.default (scripts/fuzz).
 */
class PbsParsersFuzzTest {
    private static final FuzzTally JOBS = new FuzzTally("PBS qstat jobs");
    private static final FuzzTally NODES = new FuzzTally("PBS pbsnodes nodes");
    private static final FuzzTally QUEUES = new FuzzTally("PBS qstat queues");
    private static final PbsQueues NO_QUEUES = new PbsQueues(Set.of(), QueueSharing.none());

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
        JOBS.print();
        NODES.print();
        QUEUES.print();
    }

    private static ParserFuzz.Read jobs(byte[] output) throws Exception {
        PbsOutputParser.Jobs jobs = new PbsOutputParser(ZoneOffset.UTC).jobs(new ByteArrayInputStream(output),
                "qstat -f -t -F json", NO_QUEUES);
        return new ParserFuzz.Read(jobs.jobs().stream().map(SchedulerJob::id).collect(Collectors.toSet()),
                jobs.unreadable().size());
    }

    private static ParserFuzz.Read nodes(byte[] output) throws Exception {
        return new PbsOutputParser(ZoneOffset.UTC).nodes(new ByteArrayInputStream(output), "pbsnodes -a -F json")
                .map(nodes -> new ParserFuzz.Read(nodes.nodes().stream().map(SchedulerNode::name)
                        .collect(Collectors.toSet()), nodes.unreadable().size()))
                .orElse(new ParserFuzz.Read(Set.of(), 0));
    }

    /** The queues parser does not say which it skipped, only logs them: each warning is one skipped queue. */
    private ParserFuzz.Read queues(byte[] output) throws Exception {
        List<PbsQueue> queues = new PbsOutputParser(ZoneOffset.UTC).queues(new ByteArrayInputStream(output),
                "qstat -Q -f -F json");
        return new ParserFuzz.Read(queues.stream().map(PbsQueue::name).collect(Collectors.toSet()),
                log.peekCount());
    }

    private ParserFuzz fuzz(ParserFuzz.Parser parser) {
        return new ParserFuzz(parser, SchedulerReadException.class, log);
    }

    @Property
    void damagedJobsAreReadSkippedOrRefused(@ForAll("damagedJobs") byte[] output) throws Exception {
        JOBS.count(() -> fuzz(PbsParsersFuzzTest::jobs).outcome(output));
    }

    @Property
    void aMutatedJobCostsOnlyItself(@ForAll("oneJobMutated") TreeMutations.Mutated output) throws Exception {
        JOBS.count(() -> fuzz(PbsParsersFuzzTest::jobs).keepsTheOthers(output));
    }

    @Property
    void damagedNodesAreReadSkippedOrRefused(@ForAll("damagedNodes") byte[] output) throws Exception {
        NODES.count(() -> fuzz(PbsParsersFuzzTest::nodes).outcome(output));
    }

    @Property
    void aMutatedNodeCostsOnlyItself(@ForAll("oneNodeMutated") TreeMutations.Mutated output) throws Exception {
        NODES.count(() -> fuzz(PbsParsersFuzzTest::nodes).keepsTheOthers(output));
    }

    @Property
    void damagedQueuesAreReadSkippedOrRefused(@ForAll("damagedQueues") byte[] output) throws Exception {
        QUEUES.count(() -> fuzz(this::queues).outcome(output));
    }

    @Property
    void aMutatedQueueCostsOnlyItself(@ForAll("oneQueueMutated") TreeMutations.Mutated output) throws Exception {
        QUEUES.count(() -> fuzz(this::queues).keepsTheOthers(output));
    }

    @Example
    void aJobHoldingFiftyMegabytesOrNestedAHundredThousandDeepIsSkippedAndTheOthersRead() throws Exception {
        String valid = "{\"job_state\":\"Q\",\"queue\":\"q\",\"Resource_List\":{\"ncpus\":1}}";
        String output = "{\"pbs_server\":\"s\",\"Jobs\":{"
                + "\"1.s\":{\"job_state\":\"Q\",\"queue\":\"q\",\"Variable_List\":" + HugeValues.string(50 << 20) + "},"
                + "\"2.s\":" + valid + ","
                + "\"3.s\":{\"job_state\":\"Q\",\"queue\":\"q\",\"x\":" + HugeValues.nestedArrays(100_000) + "},"
                + "\"4.s\":" + valid + "}}";
        PbsOutputParser.Jobs jobs = new PbsOutputParser(ZoneOffset.UTC).jobs(
                new ByteArrayInputStream(output.getBytes(StandardCharsets.ISO_8859_1)), "qstat", NO_QUEUES);
        assertEquals(Set.of("1.s", "3.s"), jobs.unreadable());
        assertEquals(Set.of("2.s", "4.s"), jobs.jobs().stream().map(SchedulerJob::id).collect(Collectors.toSet()));
        assertEquals(2, log.take().size());
    }

    /** qstat printing a job without end: the runner's cap stops it, not the parser, and no job is half read. */
    @Example
    void outputLargerThanTheCommandCapIsRefusedByTheRunner() {
        CommandLimits limits = new CommandLimits(Duration.ofSeconds(30), "agent.commandTimeout", 8 << 20,
                "agent.commandMaxOutput");
        CommandLine qstat = new CommandLine(List.of("sh", "-c", "printf '{\"pbs_server\":\"s\",\"Jobs\":{\"1.s\":"
                + "{\"Variable_List\":\"'; yes x | tr -d '\\n'"), limits, "agent.pbs.qstat");
        CommandOutputTooLargeException e = assertThrows(CommandOutputTooLargeException.class,
                () -> new ZtExecCommandRunner().run(qstat, output -> new PbsOutputParser(ZoneOffset.UTC)
                        .jobs(output, qstat.display(), NO_QUEUES)));
        assertTrue(e.getMessage().contains("agent.commandMaxOutput"), e.getMessage());
    }

    @Provide
    Arbitrary<byte[]> damagedJobs() {
        return ByteMutations.of(fixtures(Fixtures.CLOUD_JOBS, Fixtures.HISTORY_JOBS, Fixtures.MALFORMED_JOBS));
    }

    @Provide
    Arbitrary<TreeMutations.Mutated> oneJobMutated() {
        return TreeMutations.ofEntries(fixtures(Fixtures.CLOUD_JOBS, Fixtures.HISTORY_JOBS, Fixtures.MALFORMED_JOBS),
                "Jobs");
    }

    @Provide
    Arbitrary<byte[]> damagedNodes() {
        return ByteMutations.of(fixtures(Fixtures.NODES));
    }

    @Provide
    Arbitrary<TreeMutations.Mutated> oneNodeMutated() {
        return TreeMutations.ofEntries(fixtures(Fixtures.NODES), "nodes");
    }

    @Provide
    Arbitrary<byte[]> damagedQueues() {
        return ByteMutations.of(fixtures(Fixtures.CLOUD_QUEUES, Fixtures.SITE_QUEUES));
    }

    @Provide
    Arbitrary<TreeMutations.Mutated> oneQueueMutated() {
        return TreeMutations.ofEntries(fixtures(Fixtures.CLOUD_QUEUES, Fixtures.SITE_QUEUES), "Queue");
    }

    private static List<byte[]> fixtures(String... names) {
        return Stream.of(names).map(Fixtures::bytes).toList();
    }
}
