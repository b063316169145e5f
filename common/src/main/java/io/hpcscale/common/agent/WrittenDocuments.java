package io.hpcscale.common.agent;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** What the agent knows to be in the store: the job and vm documents it wrote and has not deleted. */
record WrittenDocuments(Map<DocumentKey, JobDocument> jobs, Map<DocumentKey, VmDocument> vms) {

    WrittenDocuments withVms(Collection<VmDocument> written) {
        if (written.isEmpty()) {
            return this;
        }
        Map<DocumentKey, VmDocument> updated = new HashMap<>(vms);
        written.forEach(vm -> updated.put(vm.key(), vm));
        return new WrittenDocuments(jobs, updated);
    }

    Map<String, VmDocument> vmsByName() {
        Map<String, VmDocument> byName = new HashMap<>(vms.size() * 2);
        vms.values().forEach(vm -> byName.put(vm.name(), vm));
        return byName;
    }
}
