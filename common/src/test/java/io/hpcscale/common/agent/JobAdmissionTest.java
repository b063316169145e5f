package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.EveryModule;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.FakeCommandRunner;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class JobAdmissionTest {
    private static final Instant T0 = Instant.parse("2026-11-27T08:00:00Z");
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(5), "agent.commandTimeout",
            1_000_000, "agent.commandMaxOutput");

    private static SchedulerJob job(String id, JobState state, int minute, int cpus, Map<String, Long> shared,
            String owner) {
        return new SchedulerJob(id, List.of("workq"), state, List.of(Chunk.ofCpus(1, cpus)), 1, Placement.pack,
                false, T0.plusSeconds(60L * minute), List.of(), null, new JobAsks(null, shared, owner));
    }

    private static Map<String, String> waiting(SchedulerSnapshot snapshot) {
        return snapshot.jobs().stream().filter(j -> j.state() == JobState.Waiting)
                .collect(Collectors.toMap(SchedulerJob::id, SchedulerJob::waitingFor));
    }

    private static SharedResources shared(Map<String, String> settings, FakeCommandRunner runner) {
        return SharedResources.fromSettings(new ConfigLoader(ConfigCatalog.of(EveryModule.catalog().keys()))
                .fromMap(settings, EveryModule.TEST_PROGRAM), runner, LIMITS);
    }

    @Test
    void aLicenceLimitOfThreeHoldsTheFourthJobBackAndSaysWhy() throws Exception {
        Map<String, Long> one = Map.of("matlab", 1L);
        SchedulerSnapshot snapshot = SchedulerSnapshot.of(List.of(job("1", JobState.Queued, 1, 4, one, "a"),
                job("2", JobState.Queued, 2, 4, one, "a"), job("3", JobState.Queued, 3, 4, one, "b"),
                job("4", JobState.Queued, 4, 4, one, "b"), job("5", JobState.Queued, 5, 4, Map.of(), "b")),
                List.of());
        JobAdmission admission = new JobAdmission(shared(Map.of("shared.matlab.total", "3"),
                new FakeCommandRunner()));
        assertEquals(Map.of("4", "shared resource matlab: it asks for 1 and 0 of the 3 free now are left for it"),
                waiting(admission.admit(snapshot).snapshot()), "the latest submitted waits; a job asking none runs");
    }

    @Test
    void runningJobsTakeTheirLicencesFirstFromAConfiguredTotal() throws Exception {
        SchedulerSnapshot snapshot = SchedulerSnapshot.of(List.of(
                job("1", JobState.Running, 1, 4, Map.of("matlab", 2L), "a"),
                job("2", JobState.Queued, 2, 4, Map.of("matlab", 2L), "a")), List.of());
        JobAdmission admission = new JobAdmission(shared(Map.of("shared.matlab.total", "3"),
                new FakeCommandRunner()));
        assertEquals(List.of("2"), List.copyOf(waiting(admission.admit(snapshot).snapshot()).keySet()));
    }

    @Test
    void aCommandSaysHowManyAreFreeAndOneThatFailsHoldsNothingBack() throws Exception {
        SchedulerSnapshot snapshot = SchedulerSnapshot.of(List.of(
                job("1", JobState.Running, 1, 4, Map.of("abaqus", 5L), "a"),
                job("2", JobState.Queued, 2, 4, Map.of("abaqus", 5L), "a"),
                job("3", JobState.Queued, 3, 4, Map.of("abaqus", 5L), "a")), List.of());
        FakeCommandRunner runner = new FakeCommandRunner().printing(List.of("/bin/sh", "-c", "lmstat-free abaqus"),
                "5\n");
        JobAdmission.Admitted admitted = new JobAdmission(shared(Map.of("shared.abaqus.command",
                "lmstat-free abaqus"), runner)).admit(snapshot);
        assertEquals(List.of("3"), List.copyOf(waiting(admitted.snapshot()).keySet()),
                "the command counts what is free now: the running job's are already taken");

        FakeCommandRunner broken = new FakeCommandRunner().printing(List.of("/bin/sh", "-c", "lmstat-free abaqus"),
                "licence server down\n");
        JobAdmission.Admitted unknown = new JobAdmission(shared(Map.of("shared.abaqus.command",
                "lmstat-free abaqus"), broken)).admit(snapshot);
        assertEquals(Map.of(), waiting(unknown.snapshot()), "unknown is not zero");
        assertEquals(List.of("shared.abaqus.command printed 'licence server down': it must print the number of "
                + "abaqus free now, on its first line: how many abaqus are free is not known this cycle, so no job "
                + "waits for it"), unknown.problems());
    }

    @Test
    void aQueuesMaxRunCapsTheJobsThatWaitForNodes() throws Exception {
        SchedulerSnapshot snapshot = new SchedulerSnapshot(List.of(job("1", JobState.Running, 1, 4, Map.of(), "a"),
                job("2", JobState.Queued, 2, 4, Map.of(), "a"), job("3", JobState.Queued, 3, 4, Map.of(), "b"),
                job("4", JobState.Hold, 0, 4, Map.of(), "b")), List.of(), Set.of(), Set.of(),
                Map.of("workq", List.of(new QueueLimit(QueueLimit.Kind.RUNNING_JOBS, null, 2,
                        "max_run = [o:PBS_ALL=2]"))));
        SchedulerSnapshot admitted = JobAdmission.none().admit(snapshot).snapshot();
        assertEquals(Map.of("3", "queue workq's limit max_run = [o:PBS_ALL=2] is reached (2 jobs running or first "
                + "in line)"), waiting(admitted));
        assertEquals(JobState.Hold, admitted.jobs().get(3).state(), "a held job stays held");
    }

    @Test
    void perUserAndPerJobLimitsCountEachUserAndEachJobAlone() throws Exception {
        SchedulerSnapshot snapshot = new SchedulerSnapshot(List.of(job("1", JobState.Running, 1, 4, Map.of(), "a"),
                job("2", JobState.Queued, 2, 4, Map.of(), "a"), job("3", JobState.Queued, 3, 4, Map.of(), "b"),
                job("4", JobState.Queued, 4, 64, Map.of(), "c")), List.of(), Set.of(), Set.of(),
                Map.of("workq", List.of(
                        new QueueLimit(QueueLimit.Kind.RUNNING_JOBS, QueueLimit.EACH_USER, 1,
                                "max_run = [u:PBS_GENERIC=1]"),
                        new QueueLimit(QueueLimit.Kind.JOB_CPUS, null, 32, "resources_max.ncpus = 32"))));
        Map<String, String> waiting = waiting(JobAdmission.none().admit(snapshot).snapshot());
        assertEquals(Set.of("2", "4"), waiting.keySet());
        assertTrue(waiting.get("4").startsWith("it asks for 64 CPUs, more than queue workq's resources_max.ncpus"),
                waiting.get("4"));
    }

    @Test
    void aUsersOwnLimitIsAppliedInsteadOfTheOneOnEveryUser() throws Exception {
        SchedulerSnapshot snapshot = new SchedulerSnapshot(List.of(job("1", JobState.Running, 1, 4, Map.of(), "alice"),
                job("2", JobState.Queued, 2, 4, Map.of(), "alice"), job("3", JobState.Queued, 3, 4, Map.of(), "alice"),
                job("4", JobState.Running, 4, 4, Map.of(), "bob"), job("5", JobState.Queued, 5, 4, Map.of(), "bob")),
                List.of(), Set.of(), Set.of(), Map.of("workq", List.of(
                        new QueueLimit(QueueLimit.Kind.RUNNING_JOBS, QueueLimit.EACH_USER, 1,
                                "max_run = [u:PBS_GENERIC=1]"),
                        new QueueLimit(QueueLimit.Kind.RUNNING_JOBS, "alice", 3, "max_run = [u:alice=3]"))));
        assertEquals(Set.of("5"), waiting(JobAdmission.none().admit(snapshot).snapshot()).keySet(),
                "alice may run three; bob, under the generic limit, one");
    }

    @Test
    void aTotalAndACommandForOneResourceAreRefusedByName() {
        ConfigException e = assertThrows(ConfigException.class, () -> shared(Map.of("shared.matlab.total", "3",
                "shared.matlab.command", "lmstat"), new FakeCommandRunner()));
        assertEquals(List.of("shared.matlab.total and shared.matlab.command are both set: keep the total for a fixed "
                + "count, or the command for what is free now"), e.problems());
    }

    @Test
    void withoutLimitsOrSharedResourcesTheSnapshotIsUntouched() throws Exception {
        SchedulerSnapshot snapshot = SchedulerSnapshot.of(List.of(job("1", JobState.Queued, 1, 4, Map.of(), "a")),
                List.of());
        JobAdmission.Admitted admitted = JobAdmission.none().admit(snapshot);
        assertEquals(snapshot, admitted.snapshot());
        assertNull(admitted.snapshot().jobs().get(0).waitingFor());
    }
}
