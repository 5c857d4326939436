package dev.lockscope.analysis.jfr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * The chunks of a JFR file, each checked before any of its events is used: a chunk whose header,
 * metadata, constant pools or events do not decode is skipped and counted, and reading goes on at
 * the next chunk header, so every complete chunk of a damaged or killed recording is salvaged.
 *
 * <p>A chunk the JVM never finished (file state byte non-zero: the JVM was killed, or is still
 * writing) is read up to where its header says the last flush ended. Every step moves forward by at
 * least one byte, so no input makes the reader loop.
 *
 * <p>A chunk that the file holds a second time (the same start time, start ticks and size: JFR never
 * starts two chunks at one tick, so this is one chunk written twice, as a destination appended to
 * again) is read once; the copies are counted, not handed on.
 */
public final class JfrFile {
    private static final int MAGIC = 0x464C5200; // "FLR\0"

    /** What is done with each readable chunk. */
    public interface ChunkHandler {
        void chunk(JfrChunk chunk);
    }

    /**
     * How much of a file was read.
     *
     * @param chunksRead    chunks whose events were all handed on
     * @param chunksDamaged chunks skipped as unreadable
     * @param bytesLost     bytes of the file in skipped chunks and in stretches without a chunk header
     * @param unfinished    chunks read up to their last flush because the JVM never finished them
     * @param chunksRepeated copies of chunks read before (same header), skipped
     */
    public record Summary(long fileBytes, int chunksRead, int chunksDamaged, long bytesLost, int unfinished,
                          String firstProblem, int chunksRepeated) {
        public boolean complete() {
            return chunksDamaged == 0 && bytesLost == 0;
        }
    }

    private JfrFile() {
    }

    /** Whether the file starts with a Flight Recorder chunk header. */
    public static boolean startsWithMagic(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(4);
            while (b.hasRemaining() && ch.read(b) > 0) {
                // fill
            }
            return !b.hasRemaining() && b.getInt(0) == MAGIC;
        }
    }

    /**
     * Hands every readable chunk to {@code handler}, after checking that all its events decode.
     * Exceptions of the handler propagate.
     */
    public static Summary read(Path path, ChunkHandler handler) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long length = ch.size();
            long pos = 0;
            int read = 0;
            int damaged = 0;
            int unfinished = 0;
            int repeated = 0;
            Set<ChunkIdentity> seen = new HashSet<>();
            long lost = 0;
            String firstProblem = null;
            ByteBuffer header = ByteBuffer.allocate(JfrChunk.HEADER_SIZE);
            while (pos < length) {
                header.clear();
                while (header.hasRemaining() && ch.read(header, pos + header.position()) > 0) {
                    // fill
                }
                boolean magic = header.position() >= 4 && header.getInt(0) == MAGIC;
                String problem = null;
                long size = 0;
                if (!magic) {
                    problem = "no chunk header at byte " + pos;
                } else if (header.hasRemaining()) {
                    problem = "chunk header cut at byte " + pos;
                } else {
                    size = header.getLong(8);
                    boolean finished = header.get(64) == 0;
                    if (size < JfrChunk.HEADER_SIZE || size > length - pos || size > Integer.MAX_VALUE) {
                        problem = finished ? "chunk at byte " + pos + " is cut (size " + size + ")"
                                : "chunk at byte " + pos + " was never finished and has no complete part";
                    } else if (seen.contains(new ChunkIdentity(header.getLong(32), header.getLong(48), size))) {
                        repeated++;
                        pos += size;
                        continue;
                    }
                }
                if (problem != null) {
                    long next = nextMagic(ch, pos + 1, length);
                    if (magic) {
                        damaged++; // bytes without a chunk header are lost, but they are no chunk
                    }
                    lost += next - pos;
                    firstProblem = firstProblem == null ? problem : firstProblem;
                    pos = next;
                    continue;
                }
                ReadingProgress.chunk(path, pos, size, length);
                ByteBuffer bytes = ch.map(FileChannel.MapMode.READ_ONLY, pos, size);
                JfrChunk chunk;
                try {
                    chunk = new JfrChunk(bytes);
                    chunk.events(null);
                } catch (RuntimeException e) {
                    // JfrFormatException, or any other: a check this parser lacks must cost the chunk, never the reading
                    damaged++;
                    lost += size;
                    firstProblem = firstProblem == null ? "chunk at byte " + pos + ": " + e.getMessage() : firstProblem;
                    pos += size;
                    continue;
                }
                if (!chunk.finished) {
                    unfinished++;
                }
                seen.add(new ChunkIdentity(chunk.startNanos, chunk.startTicks, size)); // a damaged copy does not hide a good one
                handler.chunk(chunk);
                read++;
                pos += size;
            }
            return new Summary(length, read, damaged, lost, unfinished, firstProblem, repeated);
        } finally {
            ReadingProgress.done(path);
        }
    }

    /** What tells one chunk from another: its header's start nanos and start ticks, and its size. */
    private record ChunkIdentity(long startNanos, long startTicks, long size) {
    }

    /** The position of the next chunk magic at or after {@code from}, or {@code length} when there is none. */
    private static long nextMagic(FileChannel ch, long from, long length) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(1 << 16);
        long pos = from;
        while (pos < length) {
            block.clear();
            int n = ch.read(block, pos);
            if (n <= 0) {
                break;
            }
            for (int i = 0; i + 4 <= n; i++) {
                if (block.getInt(i) == MAGIC) {
                    return pos + i;
                }
            }
            if (n < 4) {
                break;
            }
            pos += n - 3;
        }
        return length;
    }
}
