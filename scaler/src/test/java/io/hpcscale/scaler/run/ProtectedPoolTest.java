package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.documents.BootHealth;
import io.hpcscale.scaler.documents.EventDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A pool whose instances start but never join the scheduler (a broken image): after protectAfter failed boots in a
 * row, across backoffs, it starts nothing but a probe every protectProbeAfter, until a probe boots or an
 * administrator resumes it.
 */
class ProtectedPoolTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final DocumentStore documents = new DocumentStore(fixture.memory);

    private PoolConfig pool() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.img.provider", "simulated");
        values.put("pool.img.cpus", "16");
        values.put("pool.img.memoryMb", "65536");
        values.put("pool.img.max", "4");
        values.put("pool.img.simulated.bootDelay", "1m");
        values.put("pool.img.bootTimeout", "5m");
        values.put("pool.img.bootFailuresBeforeBackoff", "2");
        values.put("pool.img.capacityBackoff", "3m");
        values.put("pool.img.protectAfter", "4");
        values.put("pool.img.protectProbeAfter", "30m");
        return PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER))
                .get("img");
    }

    /** The nodes whose instances came up, reported free as an agent would; the others never join. */
    private void agentReads() {
        List<VmDocument> vms = new ArrayList<>();
        for (String node : fixture.cloud.upNodes("img")) {
            vms.add(new VmDocument(CosmosIds.encode(node), "img", node, NodeJobStatus.Free, "free", false, false,
                    false, false, 16, 0, 65536, 0, 0, 0, List.of(), fixture.clock.instant(), fixture.clock.instant(),
                    null, "agent-h-pbs"));
        }
        documents.upsert(vms);
        fixture.agentReported("img");
    }

    private void minutes(Scaler scaler, int minutes) throws InterruptedException {
        for (int i = 0; i < minutes; i++) {
            agentReads();
            scaler.runOnce(fixture.clock.instant());
            fixture.clock.advance(Duration.ofMinutes(1));
        }
    }

    private long starts() {
        return fixture.eventsOf(EventKind.START).size() + fixture.eventsOf(EventKind.CREATE).size();
    }

    @Test
    void fourFailedBootsAcrossBackoffsProtectThePoolAndAProbeThatBootsResumesIt() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool());
        fixture.cloud.breakBoots("img", 1000);
        fixture.queued("img", "j1", 16);

        minutes(scaler, 40);
        BootHealth health = fixture.state("img").bootHealth();
        assertTrue(health.protectedNow(), "four boots in a row failed: " + health);
        assertTrue(fixture.eventsOf(EventKind.PROTECTED).stream()
                .anyMatch(e -> e.reason().startsWith("protected since")), "an event says so");
        assertTrue(health.recentFailures().get(health.recentFailures().size() - 1).contains("img_"),
                "the last failures' reasons are kept: " + health.recentFailures());

        long startsWhenProtected = starts();
        Duration untilProbe = Duration.between(fixture.clock.instant(),
                health.protectedSince().plus(Duration.ofMinutes(30)));
        minutes(scaler, (int) untilProbe.toMinutes() - 1);
        assertEquals(startsWhenProtected, starts(), "nothing starts while protected, before the probe");

        fixture.cloud.breakBoots("img", 0);
        minutes(scaler, 10);
        assertEquals(startsWhenProtected + 1, starts(), "one probe, which took the job");
        assertEquals(BootHealth.NONE, fixture.state("img").bootHealth(), "the probe booted");
        assertEquals(1, fixture.eventsOf(EventKind.RESUMED).size());
    }

    @Test
    void theJobsOfAProtectedPoolAreToldWhyWithAWriteOnlyWhenTheReasonChanges() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool());
        fixture.cloud.breakBoots("img", 1000);
        fixture.queued("img", "j1", 16);
        List<String> written = new ArrayList<>();
        Set<String> versions = new HashSet<>();
        for (int minute = 0; minute < 60; minute++) {
            minutes(scaler, 1);
            documents.read(WaitReasonsDocument.keyFor("img"), WaitReasonsDocument.class).ifPresent(read -> {
                if (versions.add(read.etag())) {
                    written.add(read.document().reason());
                }
            });
        }
        String last = written.get(written.size() - 1);
        assertEquals("pool img is protected after repeated failed boots: no node starts until an administrator "
                + "resumes it", last);
        assertTrue(written.stream().anyMatch(r -> r != null && r.startsWith("pool img starts no node before ")),
                "the backoffs before it were said too: " + written);
        assertTrue(written.size() <= 4, "a write when the reason changes, not every cycle: " + written);
        System.out.println("why the jobs of pool img waited, as written: " + written);

        fixture.cloud.breakBoots("img", 0);
        PoolResume.resume(documents, "img", new ScalerEvents(documents, Duration.ofDays(1), true),
                fixture.clock.instant(), "a test");
        minutes(scaler, 3);
        assertEquals(null, documents.read(WaitReasonsDocument.keyFor("img"), WaitReasonsDocument.class)
                .orElseThrow().document().reason(), "resumed: nothing stops the pool's jobs any more");
    }

    @Test
    void aProbeThatFailsIsFollowedByTheNextOnlyAProbeIntervalLater() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool());
        fixture.cloud.breakBoots("img", 1000);
        fixture.queued("img", "j1", 16);
        minutes(scaler, 40);
        BootHealth protectedAt = fixture.state("img").bootHealth();
        assertTrue(protectedAt.protectedNow());
        long before = starts();

        minutes(scaler, (int) Duration.between(fixture.clock.instant(),
                protectedAt.protectedSince().plus(Duration.ofMinutes(30))).toMinutes() + 8);
        assertEquals(before + 1, starts(), "one probe, which failed within its boot timeout");
        BootHealth afterProbe = fixture.state("img").bootHealth();
        assertTrue(afterProbe.protectedSince().isAfter(protectedAt.protectedSince()), "the wait begins again");

        minutes(scaler, 20);
        assertEquals(before + 1, starts(), "no probe straight after the failed one");
        minutes(scaler, 15);
        assertEquals(before + 2, starts(), "the next probe, a probe interval after the failure");
    }

    @Test
    void anAdministratorResumesAProtectedPoolAndItStartsAgainAtTheNextCycle() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool());
        fixture.cloud.breakBoots("img", 1000);
        fixture.queued("img", "j1", 16);
        minutes(scaler, 40);
        assertTrue(fixture.state("img").bootHealth().protectedNow());
        long before = starts();

        ScalerEvents events = new ScalerEvents(documents, Duration.ofDays(1), true);
        Optional<BootHealth> was = PoolResume.resume(documents, "img", events, fixture.clock.instant(), "a test");

        assertTrue(was.isPresent() && was.get().failedInARow() >= 4, String.valueOf(was));
        assertEquals(Optional.empty(), PoolResume.resume(documents, "img", events, fixture.clock.instant(),
                "a test"), "resumed once: nothing more to do");
        assertTrue(documents.inPool(DocumentType.EVENTS, "img", EventDocument.class).stream()
                .anyMatch(e -> e.action().equals("resumed") && e.reason().startsWith("resumed by a test")));
        minutes(scaler, 1);
        assertTrue(starts() > before, "it starts instances for its job at once");
    }

    @Test
    void theStatusOfAProtectedPoolSaysSoAndHowToResumeIt() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool());
        fixture.cloud.breakBoots("img", 1000);
        fixture.queued("img", "j1", 16);
        minutes(scaler, 40);

        PoolCensus census = scaler.planOnly(fixture.clock.instant()).pools().get(0).census();

        assertTrue(census.protectedBecause().contains("until hpcscale-scaler resume img, or a probe instance at"),
                census.protectedBecause());
        assertTrue(documents.inPool(DocumentType.EVENTS, "img", EventDocument.class).stream()
                .anyMatch(e -> e.action().equals("protected")), "the event is in the store");
    }

}
