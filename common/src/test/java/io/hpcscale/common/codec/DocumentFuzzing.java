package io.hpcscale.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.fuzz.ByteMutations;
import io.hpcscale.common.fuzz.FuzzTally.Outcome;
import io.hpcscale.common.fuzz.FuzzTally;
import io.hpcscale.common.fuzz.TreeMutations;
import io.hpcscale.common.model.ClusterLoadDocument;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Stored documents as another version of hpcscale, a person or a damaged store may have left them: each decodes to
 * the type it names or is refused with DocumentFormatException, and a newer schema is refused rather than misread.
 * A module that brings documents of its own ({@link DocumentFormat}) runs these properties over them too.
 */
public abstract class DocumentFuzzing {
    private static final FuzzTally DOCUMENTS = new FuzzTally("stored documents (DocumentCodec)");
    private static final DocumentCodec CODEC = new DocumentCodec();

    /** One document of each type this suite damages. */
    protected abstract List<ClusterLoadDocument> documentsOfEveryType();

    @AfterContainer
    static void printTally() {
        DOCUMENTS.print();
    }

    /** Decodes stored text; a document it returns must be of the type the text names. */
    protected static Outcome decode(byte[] stored) {
        try {
            ObjectNode json = CODEC.parse(new String(stored, StandardCharsets.UTF_8));
            ClusterLoadDocument document = CODEC.decode(json);
            assertEquals(json.path("Type").asText(), document.type().wireName());
            return Outcome.READ;
        } catch (DocumentFormatException e) {
            return Outcome.REFUSED;
        }
    }

    @Property
    void damagedDocumentsDecodeOrAreRefused(@ForAll("damagedDocuments") byte[] stored) throws Exception {
        DOCUMENTS.count(() -> decode(stored));
    }

    @Property
    void documentsWithANodeOfAnotherTypeDecodeAsTheTypeTheyNameOrAreRefused(
            @ForAll("documentsWithANodeChanged") byte[] stored) throws Exception {
        DOCUMENTS.count(() -> decode(stored));
    }

    @Property
    void anOlderOrMissingSchemaVersionIsReadAsVersionOneAndANewerOneIsRefused(
            @ForAll("documentsOfEveryType") ClusterLoadDocument document,
            @ForAll("schemaVersions") Long version) throws Exception {
        DOCUMENTS.count(() -> {
            ObjectNode json = CODEC.encode(document);
            if (version == null) {
                json.remove("SchemaVersion");
            } else {
                json.put("SchemaVersion", version);
            }
            if (version != null && version > ClusterLoadDocument.SCHEMA_VERSION) {
                DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> CODEC.decode(json));
                assertTrue(e.getMessage().contains("newer hpcscale"), e.getMessage());
                return Outcome.REFUSED;
            }
            assertEquals(document, CODEC.decode(CODEC.parse(json.toString())));
            return Outcome.READ;
        });
    }

    /** Jackson's own bounds (nesting 1000 deep, strings of 20 million characters) refuse these before they cost more. */
    @Provide("documentsOfEveryType")
    Arbitrary<ClusterLoadDocument> anyDocument() {
        return Arbitraries.of(documentsOfEveryType());
    }

    /** Missing, older (0, negative), current and newer versions. */
    @Provide
    Arbitrary<Long> schemaVersions() {
        return Arbitraries.longs().between(-5, 5).injectNull(0.2).edgeCases(c -> c.add(Long.MAX_VALUE));
    }

    @Provide
    Arbitrary<byte[]> damagedDocuments() {
        return ByteMutations.of(encoded());
    }

    @Provide
    Arbitrary<byte[]> documentsWithANodeChanged() {
        return TreeMutations.anywhere(encoded());
    }

    private List<byte[]> encoded() {
        return documentsOfEveryType().stream().map(d -> CODEC.encode(d).toString().getBytes(StandardCharsets.UTF_8))
                .toList();
    }
}
