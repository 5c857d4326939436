package dev.lockscope.analysis.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks the chunk structure of a JFR file before JFR's parser sees it, because the parser's own
 * errors on a bad file are low-level ("String size 23 exceeds available data",
 * IndexOutOfBoundsException) and depend on where the file was cut.
 *
 * <p>A JFR file is a sequence of chunks; each starts with the magic bytes {@code FLR\0}, a 2+2 byte
 * version and the chunk's total size as a big-endian long at offset 8.
 */
final class JfrFileCheck {
    private static final int HEADER = 16;

    private JfrFileCheck() {
    }

    /** @return null if the file looks complete, otherwise what is wrong, as a short phrase */
    static String problem(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long length = ch.size();
            long pos = 0;
            ByteBuffer header = ByteBuffer.allocate(HEADER);
            do {
                header.clear();
                int read = 0;
                while (header.hasRemaining() && ch.read(header, pos + read) > 0) {
                    read = header.position();
                }
                boolean magic = read >= 4 && header.get(0) == 'F' && header.get(1) == 'L' && header.get(2) == 'R'
                        && header.get(3) == 0;
                if (!magic) {
                    return pos == 0 ? "not a JFR recording (no Flight Recorder header)"
                            : "recording is damaged (no chunk header at byte " + pos + ")";
                }
                if (read < HEADER) {
                    return truncated();
                }
                long size = header.getLong(8);
                if (size < HEADER || pos + size > length) {
                    return truncated();
                }
                pos += size;
            } while (pos < length);
            return null;
        }
    }

    static String truncated() {
        return "recording is truncated (the JVM may still be writing it, or was killed)";
    }
}
