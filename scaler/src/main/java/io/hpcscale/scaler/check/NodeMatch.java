package io.hpcscale.scaler.check;

import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.plan.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether the nodes an agent reports in a pool and the pool's instances are the same machines, matched by name as
 * the planner matches them (without case or domain). A mismatch is what a wrong node naming or queue mapping looks
 * like, and the scaler cannot act well on either side of it.
 */
public final class NodeMatch {
    /** Names listed in one finding: enough to recognise the pattern, not a page of them. */
    private static final int LISTED = 10;

    private NodeMatch() {
    }

    /**
     * @param naming   the setting that names an instance's node, with its value, for the advice
     * @param provider the provider's description, e.g. "Uniform scale set hb in resource group rg"
     */
    public static List<Finding> compare(String pool, String provider, String naming, List<Instance> instances,
            List<VmDocument> nodes) {
        Set<String> instanceNodes = instances.stream().map(i -> NodeNames.key(i.nodeName()))
                .collect(Collectors.toSet());
        Set<String> reported = nodes.stream().map(n -> NodeNames.key(n.name())).collect(Collectors.toSet());
        List<String> strangers = nodes.stream().filter(n -> !instanceNodes.contains(NodeNames.key(n.name())))
                .map(n -> n.name() + " (" + (n.schedulerState() == null ? n.jobStatus() : n.schedulerState()) + ")")
                .sorted().toList();
        List<Instance> running = instances.stream().filter(i -> i.state() == PowerState.RUNNING).toList();
        List<String> unreported = running.stream().filter(i -> !reported.contains(NodeNames.key(i.nodeName())))
                .map(i -> i.id() + ": node " + i.nodeName()).sorted().toList();
        List<Finding> findings = new ArrayList<>();
        if (!strangers.isEmpty()) {
            findings.add(strangers(pool, provider, naming, strangers));
        }
        if (!unreported.isEmpty()) {
            findings.add(unreported(pool, provider, naming, unreported));
        }
        if (findings.isEmpty()) {
            findings.add(Finding.ok(agreement(pool, nodes.size(), running.size())));
        }
        return findings;
    }

    private static Finding strangers(String pool, String provider, String naming, List<String> strangers) {
        boolean one = strangers.size() == 1;
        return Finding.problem("nodes: the agent reports " + Words.count(strangers.size(), "node") + " in pool "
                + pool + " that " + (one ? "is" : "are") + " no instance of " + provider + ": the scaler neither "
                + "counts nor stops " + (one ? "it" : "them") + ". Make the node naming (" + naming + ") give the "
                + "names the scheduler uses, or fix the agent's mapping of nodes to pools (pool." + pool + ".queue, "
                + ".partition, .nodePattern)", first(strangers));
    }

    private static Finding unreported(String pool, String provider, String naming, List<String> unreported) {
        boolean one = unreported.size() == 1;
        return Finding.problem("nodes: " + Words.count(unreported.size(), "running instance") + " of " + provider
                + (one ? " has a node" : " have nodes") + " the agent does not report in pool " + pool + ": the "
                + "scaler never stops an instance it did not start while its node is unseen, and stops one it "
                + "started as a failed boot after pool." + pool + ".bootTimeout. Unless " + (one ? "it is" : "they are")
                + " still booting, check that the node joined the scheduler under this name (" + naming + ") in a "
                + "queue or partition the pool serves", first(unreported));
    }

    private static String agreement(String pool, int nodes, int running) {
        if (nodes == 0) {
            return "nodes: the agent reports no node in pool " + pool + " and no instance runs";
        }
        return "nodes: the agent reports " + Words.count(nodes, "node") + " in pool " + pool + ", each an instance "
                + "of the pool" + (running == 0 ? "" : ", and the node of each of the "
                + Words.count(running, "running instance") + " is among them");
    }

    private static List<String> first(List<String> names) {
        if (names.size() <= LISTED) {
            return names;
        }
        List<String> shown = new ArrayList<>(names.subList(0, LISTED));
        shown.add("and " + (names.size() - LISTED) + " more");
        return shown;
    }
}
