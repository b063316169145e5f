package io.hpcscale.scaler.report;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.scaler.documents.LastAction;
import io.hpcscale.scaler.run.InstanceCategory;
import io.hpcscale.scaler.run.PoolCensus;
import java.time.Duration;
import java.time.Instant;

/** {@code status --json}: the same facts for scripts, times as ISO-8601 and ages in seconds. */
public final class StatusJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StatusJson() {
    }

    public static ObjectNode of(ScalerStatus status) {
        ObjectNode json = NODES.objectNode();
        json.put("at", status.at().toString());
        json.put("error", status.error());
        ObjectNode lease = json.putObject("lease");
        if (status.lease() != null) {
            lease.put("holder", status.lease().holder());
            lease.put("expiresAt", status.lease().expiresAt().toString());
            lease.put("live", !status.lease().holder().isEmpty() && status.lease().expiresAt().isAfter(status.at()));
        }
        var pools = json.putArray("pools");
        for (PoolStatus pool : status.pools()) {
            ObjectNode p = pools.addObject();
            p.put("pool", pool.pool());
            p.put("mode", pool.fixed() ? "fixed" : "demand");
            p.put("min", pool.min());
            p.put("max", pool.max());
            p.put("problem", pool.problem());
            PoolCensus census = pool.census();
            p.put("instancesKnown", census != null && census.instancesKnown());
            if (census != null) {
                p.put("queuedJobs", census.queuedJobs());
                p.put("demandedNodes", census.demandedNodes());
                p.put("waitingJobs", census.waitingJobs());
                census.waitingFor().forEach(p.putArray("waitingFor")::add);
                if (census.target() != null) {
                    p.put("target", census.target());
                }
                if (census.instancesKnown()) {
                    ObjectNode instances = p.putObject("instances");
                    for (InstanceCategory category : InstanceCategory.values()) {
                        instances.put(category.wireName(), census.count(category));
                    }
                    census.heldByAdministrator().forEach(p.putArray("heldByAdministrator")::add);
                }
            }
            if (!pool.sealedScaleSets().isEmpty()) {
                ObjectNode sealed = p.putObject("sealedScaleSets");
                pool.sealedScaleSets().forEach(sealed::put);
            }
            if (pool.backoffUntil() != null) {
                p.putObject("backoff").put("until", pool.backoffUntil().toString())
                        .put("reason", pool.backoffReason());
            }
            if (pool.census() != null && pool.census().protectedBecause() != null) {
                p.put("protected", pool.census().protectedBecause());
            }
            if (pool.census() != null && !pool.census().orphans().isEmpty()) {
                pool.census().orphans().forEach(p.putArray("orphans")::add);
            }
            lastAction(p, pool.lastAction());
            agent(p, pool.agent(), status.at());
        }
        return json;
    }

    private static void lastAction(ObjectNode pool, LastAction action) {
        if (action == null) {
            return;
        }
        ObjectNode json = pool.putObject("lastAction");
        json.put("at", action.at().toString());
        json.put("action", action.action());
        action.instances().forEach(json.putArray("instances")::add);
        json.put("reason", action.reason());
        json.put("outcome", action.outcome());
    }

    private static void agent(ObjectNode pool, AgentDocument agent, Instant now) {
        if (agent == null) {
            return;
        }
        ObjectNode json = pool.putObject("agent");
        json.put("id", agent.id());
        json.put("host", agent.host());
        json.put("heartbeatAgeSeconds", Duration.between(agent.lastCycleAt(), now).toSeconds());
        json.put("lastError", agent.lastError());
    }
}
