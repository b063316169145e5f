package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.agent.JobAsks;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a PBS job asks beyond CPUs, memory and GPUs: the custom host-level resources of its {@code select} chunks
 * become constraints on the pool's resources of the same name ({@code infiniband=True} → {@code {"infiniband":
 * true}}, a number a minimum per node, a size such as {@code 100gb} a minimum {@code size::100g}); the job-wide
 * numbers of its {@code Resource_List} (a licence, {@code qsub -l mylic=2}) are what it takes of shared resources;
 * its owner is {@code Job_Owner} without the host. Each chunk's resources are one constraint object, and a pool must
 * meet them all: a job whose chunks ask for different kinds of node matches no single pool.
 */
final class PbsAsks {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Chunk resources PBS itself defines that say nothing about which pool's nodes suit the job. */
    private static final Set<String> PBS_CHUNK_RESOURCES = Set.of("ncpus", "ngpus", "mem", "vmem", "mpiprocs",
            "ompthreads", "host", "vnode", "arch", "aoe", "eoe", "vntype");
    /** Job-wide numbers PBS itself defines, which are no shared resource. */
    private static final Set<String> PBS_JOB_NUMBERS = Set.of("ncpus", "ngpus", "nodect", "mpiprocs",
            "ompthreads", "nice", "naccelerators");
    private static final Pattern SIZE = Pattern.compile("([0-9]+)([kmgtp]?)(b|w)", Pattern.CASE_INSENSITIVE);

    private PbsAsks() {
    }

    static JobAsks of(String select, Map<String, String> resources, String owner) {
        return new JobAsks(select == null ? null : constraints(select), shared(resources), owner(owner));
    }

    /** One constraint object per chunk that asks a custom resource, each once: a pool must meet them all. */
    private static String constraints(String select) {
        Set<ObjectNode> chunks = new LinkedHashSet<>();
        for (String chunk : select.split("\\+")) {
            ObjectNode asked = JSON.createObjectNode();
            for (String part : chunk.split(":")) {
                String[] pair = part.split("=", 2);
                if (pair.length != 2) {
                    continue;
                }
                String name = pair[0].strip().toLowerCase(Locale.ROOT);
                if (!PBS_CHUNK_RESOURCES.contains(name)) {
                    asked.set(name, JSON.valueToTree(value(pair[1].strip())));
                }
            }
            if (!asked.isEmpty()) {
                chunks.add(asked);
            }
        }
        if (chunks.isEmpty()) {
            return null;
        }
        ArrayNode constraints = JSON.createArrayNode();
        chunks.forEach(constraints::add);
        return constraints.toString();
    }

    /** As PBS types a resource's value: boolean, long, size, or string. */
    private static Object value(String text) {
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text.toLowerCase(Locale.ROOT));
        }
        if (text.matches("[0-9]+")) {
            return Long.valueOf(text);
        }
        Matcher size = SIZE.matcher(text);
        if (size.matches() && size.group(3).equalsIgnoreCase("b")) {
            return "size::" + size.group(1) + (size.group(2).isEmpty() ? "b" : size.group(2).toLowerCase(Locale.ROOT));
        }
        return text;
    }

    private static Map<String, Long> shared(Map<String, String> resources) {
        Map<String, Long> shared = new LinkedHashMap<>();
        resources.forEach((name, value) -> {
            if (!PBS_JOB_NUMBERS.contains(name) && value.strip().matches("[0-9]+")) {
                shared.put(name, Long.parseLong(value.strip()));
            }
        });
        return shared;
    }

    private static String owner(String jobOwner) {
        if (jobOwner == null || jobOwner.isBlank()) {
            return null;
        }
        int at = jobOwner.indexOf('@');
        return (at < 0 ? jobOwner : jobOwner.substring(0, at)).strip();
    }
}
