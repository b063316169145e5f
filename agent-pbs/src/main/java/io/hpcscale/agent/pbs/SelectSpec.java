package io.hpcscale.agent.pbs;

import io.hpcscale.common.model.Chunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A job's chunks from its {@code select} statement ({@code 2:ncpus=16:mem=32gb+1:ncpus=8}, or a bare count like
 * {@code 40}), with the job-wide totals ({@code Resource_List.ncpus}, {@code mem}, {@code ngpus}) filling in what the
 * chunks leave out: PBS computes those totals as sums over the chunks, so what the chunks do not name is spread
 * evenly over the chunks that do not name it. A chunk that names no CPUs and cannot be filled in needs one.
 */
final class SelectSpec {
    private SelectSpec() {
    }

    /** Totals from {@code Resource_List}; a null means the job does not say. */
    record Totals(Long ncpus, Long memoryMb, Long ngpus) {
    }

    private static final class Partial {
        final int count;
        Long cpus;
        Long memoryMb;
        Long gpus;

        Partial(int count) {
            this.count = count;
        }
    }

    /** @throws IllegalArgumentException naming the part of the statement that cannot be read */
    static List<Chunk> chunks(String select, Totals totals) {
        List<Partial> partials = new ArrayList<>();
        for (String chunkText : select.split("\\+", -1)) {
            partials.add(parseChunk(chunkText.trim(), select));
        }
        fill(partials, totals.ncpus(), p -> p.cpus, (p, v) -> p.cpus = v, 1);
        fill(partials, totals.memoryMb(), p -> p.memoryMb, (p, v) -> p.memoryMb = v, 0);
        fill(partials, totals.ngpus(), p -> p.gpus, (p, v) -> p.gpus = v, 0);
        List<Chunk> chunks = new ArrayList<>(partials.size());
        for (Partial p : partials) {
            chunks.add(new Chunk(p.count, Math.toIntExact(p.cpus), p.memoryMb, Math.toIntExact(p.gpus)));
        }
        return chunks;
    }

    /** Chunks for a job without a select statement: {@code nodect} chunks sharing the job's totals. */
    static List<Chunk> fromTotals(int nodeCount, Totals totals) {
        Partial only = new Partial(Math.max(1, nodeCount));
        List<Partial> partials = List.of(only);
        fill(partials, totals.ncpus(), p -> p.cpus, (p, v) -> p.cpus = v, 1);
        fill(partials, totals.memoryMb(), p -> p.memoryMb, (p, v) -> p.memoryMb = v, 0);
        fill(partials, totals.ngpus(), p -> p.gpus, (p, v) -> p.gpus = v, 0);
        return List.of(new Chunk(only.count, Math.toIntExact(only.cpus), only.memoryMb, Math.toIntExact(only.gpus)));
    }

    private static Partial parseChunk(String text, String select) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("select '" + select + "' has an empty chunk");
        }
        String[] parts = text.split(":", -1);
        int first = 0;
        int count = 1;
        if (parts[0].chars().allMatch(Character::isDigit)) {
            count = Integer.parseInt(parts[0]);
            first = 1;
            if (count < 1) {
                throw new IllegalArgumentException("select '" + select + "' asks for " + count + " chunks");
            }
        }
        Partial chunk = new Partial(count);
        for (int i = first; i < parts.length; i++) {
            String[] resource = parts[i].split("=", 2);
            if (resource.length != 2) {
                throw new IllegalArgumentException("select '" + select + "' has '" + parts[i]
                        + "' where a resource=value is expected");
            }
            String name = resource[0].trim().toLowerCase(Locale.ROOT);
            String value = resource[1].trim();
            try {
                switch (name) {
                    case "ncpus" -> chunk.cpus = Long.parseLong(value);
                    case "ngpus" -> chunk.gpus = Long.parseLong(value);
                    case "mem" -> chunk.memoryMb = PbsSize.toMebibytes(value);
                    default -> {
                        // Other resources (mpiprocs, host, custom ones) do not change the VM shape a chunk needs.
                    }
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("select '" + select + "' has " + name + "=" + value
                        + ", which is not a number");
            }
        }
        return chunk;
    }

    private interface Getter {
        Long get(Partial p);
    }

    private interface Setter {
        void set(Partial p, Long value);
    }

    private static void fill(List<Partial> partials, Long total, Getter getter, Setter setter, long fallback) {
        long named = 0;
        long unnamedCount = 0;
        for (Partial p : partials) {
            if (getter.get(p) == null) {
                unnamedCount += p.count;
            } else {
                named += getter.get(p) * p.count;
            }
        }
        long each = fallback;
        if (total != null && unnamedCount > 0 && total > named) {
            each = Math.max(fallback, (total - named + unnamedCount - 1) / unnamedCount);
        }
        for (Partial p : partials) {
            if (getter.get(p) == null) {
                setter.set(p, each);
            }
        }
    }
}
