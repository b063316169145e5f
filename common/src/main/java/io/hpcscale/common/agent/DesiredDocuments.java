package io.hpcscale.common.agent;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import java.util.Map;

/** The job and vm documents that describe one scheduler read. */
record DesiredDocuments(Map<DocumentKey, JobDocument> jobs, Map<DocumentKey, VmDocument> vms) {
}
