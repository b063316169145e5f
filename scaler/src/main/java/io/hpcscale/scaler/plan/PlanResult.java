package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;

/**
 * A plan, and the pool's state with what this cycle observed (boots that ended, instances found active, actions of
 * an earlier scaler whose outcome the listing now shows) but none of the plan's actions: those are recorded only
 * once their outcome is known.
 *
 * @param waitReasons why the pool's queued jobs get no node, for the agent to show their users; null when the pool's
 *                    instances or its agent's read are not known now, and what was said last stands: a blip that
 *                    took every reason back and then said it again would cost a write and a command a job, twice
 */
public record PlanResult(Plan plan, ScalerStateDocument state, WaitReasonsDocument waitReasons) {
}
