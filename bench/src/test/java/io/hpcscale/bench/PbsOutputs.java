package io.hpcscale.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * qstat and pbsnodes output at scale, in PBS's exact JSON layout, made from the job and node entries of the fixtures.
 * Every job carries the PBS_O_* environment PBS always prints; one in a hundred also carries the bare numbers with
 * leading zeros PBS prints for {@code qsub -V} jobs.
 */
final class PbsOutputs {
    private static final Path FIXTURES = Path.of("..", "agent-pbs", "src", "test", "resources", "fixtures", "pbs");
    private static final ObjectMapper JSON = new ObjectMapper();

    private PbsOutputs() {
    }

    static byte[] qstat(int jobs, int queues) throws IOException {
        List<ObjectNode> templates = new ArrayList<>();
        JsonNode fixture = JSON.readTree(FIXTURES.resolve("qstat_f_t_F_json.cloud.json").toFile());
        for (Iterator<String> ids = fixture.get("Jobs").fieldNames(); ids.hasNext(); ) {
            String id = ids.next();
            if (!id.contains("[]")) {
                templates.add((ObjectNode) fixture.get("Jobs").get(id));
            }
        }
        StringBuilder out = new StringBuilder(jobs * 1500);
        out.append("{\n    \"timestamp\":1606173520,\n    \"pbs_version\":\"2022.1.7\",\n    \"pbs_server\":"
                + "\"pbsserver\",\n    \"Jobs\":{\n");
        for (int i = 0; i < jobs; i++) {
            ObjectNode job = templates.get(i % templates.size()).deepCopy();
            job.put("queue", "workq" + (i % queues));
            job.remove("array_id");
            job.remove("array_index");
            ObjectNode env = job.putObject("Variable_List");
            env.put("PBS_O_HOME", "/home/user" + (i % 97));
            env.put("PBS_O_LANG", "en_US.UTF-8");
            env.put("PBS_O_LOGNAME", "user" + (i % 97));
            env.put("PBS_O_PATH", "/opt/pbs/bin:/usr/local/bin:/usr/bin:/bin:/opt/apps/openmpi/4.1.5/bin:"
                    + "/opt/apps/gcc/13.2.0/bin:/home/user/.local/bin:/opt/apps/python/3.11/bin:/usr/sbin:/sbin");
            env.put("PBS_O_MAIL", "/var/spool/mail/user" + (i % 97));
            env.put("PBS_O_SHELL", "/bin/bash");
            env.put("PBS_O_WORKDIR", "/scratch/user" + (i % 97) + "/run" + i);
            env.put("PBS_O_SYSTEM", "Linux");
            env.put("PBS_O_QUEUE", "workq" + (i % queues));
            env.put("PBS_O_HOST", "login01.cluster");
            if (i % 100 == 0) {
                env.put("BUILD_NUMBER", "@007@");
                env.put("CI_COMMIT_BEFORE_SHA", "@0000000000000000000000000000000000000000@");
            }
            String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(job)
                    .replaceAll("\"@(\\d+)@\"", "$1").replace("\n", "\n        ");
            out.append("        \"").append(i).append(".pbsserver\":").append(text);
            out.append(i + 1 < jobs ? ",\n" : "\n");
        }
        out.append("    }\n}\n");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] pbsnodes(int nodes, int queues, int jobs) throws IOException {
        JsonNode fixture = JSON.readTree(FIXTURES.resolve("pbsnodes_a_F_json.json").toFile());
        ObjectNode free = (ObjectNode) fixture.get("nodes").get("pinta007y000001");
        ObjectNode busy = (ObjectNode) fixture.get("nodes").get("pinta007y000002");
        StringBuilder out = new StringBuilder(nodes * 900);
        out.append("{\n    \"timestamp\":1606173513,\n    \"pbs_version\":\"2022.1.7\",\n    \"pbs_server\":"
                + "\"pbsserver\",\n    \"nodes\":{\n");
        for (int i = 0; i < nodes; i++) {
            ObjectNode node = (i % 3 == 0 ? free : busy).deepCopy();
            String name = String.format("node%05d", i);
            node.put("Mom", name + ".internal.cloudapp.net");
            node.put("queue", "workq" + (i % queues));
            ((ObjectNode) node.get("resources_available")).put("host", name).put("vnode", name);
            if (node.has("jobs")) {
                ArrayNode list = node.putArray("jobs");
                for (int cpu = 0; cpu < 16; cpu++) {
                    list.add((i % jobs) + ".pbsserver/" + cpu);
                }
            }
            String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node).replace("\n", "\n        ");
            out.append("        \"").append(name).append("\":").append(text).append(i + 1 < nodes ? ",\n" : "\n");
        }
        out.append("    }\n}\n");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
