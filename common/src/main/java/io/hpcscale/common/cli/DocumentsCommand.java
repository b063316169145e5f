package io.hpcscale.common.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.common.store.StoredDocument;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** Prints the stored documents, one JSON object per line with its {@code _etag}: exactly what the scaler sees. */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "documents", description = "Print the stored ClusterLoad documents, one JSON object per line.")
public final class DocumentsCommand implements Callable<Integer> {
    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    @Option(names = "--type", paramLabel = "TYPE",
            description = "Only documents of this type: jobs, vms, drains, agents, events, power, lease, "
                    + "scalerstate, target, marker or usage.")
    private String type;

    @Option(names = "--pool", paramLabel = "POOL", description = "Only documents of this pool.")
    private String pool;

    @Override
    public Integer call() {
        List<DocumentType> types = type == null ? Arrays.asList(DocumentType.values())
                : List.of(DocumentType.fromWireName(type).orElseThrow(() -> new ParameterException(spec.commandLine(),
                        "--type " + type + " is not a document type: use one of " + Arrays.stream(DocumentType.values())
                                .map(DocumentType::wireName).collect(java.util.stream.Collectors.joining(", ")))));
        Settings settings = root.loadSettings();
        PrintWriter out = spec.commandLine().getOut();
        try (ClusterLoadStore store = StoreFactory.openForReading(settings, Clock.systemUTC())) {
            for (DocumentType t : types) {
                List<StoredDocument> documents = pool == null ? store.queryByType(t) : store.query(t, pool);
                for (StoredDocument document : documents) {
                    ObjectNode json = document.withEtag();
                    out.println(json.toString());
                }
            }
        }
        out.flush();
        return 0;
    }
}
