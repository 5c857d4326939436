package dev.lockscope.sched;

import dev.lockscope.core.OutputFiles;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import dev.lockscope.core.OutputFiles;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The {@code .sched} file: UTF-8 text, one record per line, fields separated by one TAB.
 * <pre>
 * lockscope-sched  2
 * source           perf|schedstat
 * approximate      REASON              (only when the data are estimates)
 * pid              PID
 * cpus             N
 * window           START_NS  END_NS    (CLOCK_MONOTONIC)
 * clock            OFFSET_NS           (epoch ns minus monotonic ns at start; optional)
 * thread           TID  NAME           (NAME escaped: \\ \t \n \r)
 * t                NS  TID  I|P|O      (transition: I running, P runnable/preempted, O blocked/exited)
 * rq               NS  TID  WAIT_NS    (run-queue wait in the sample window ending at NS; fallback only)
 * end              LINES  CRC32        (the last line: how many lines precede it, and the CRC-32 of their bytes)
 * </pre>
 * Lines starting with {@code #} are comments. Unknown record types are ignored so that later
 * versions can add records. The {@code end} record makes damage an error rather than another graph:
 * a cut file lacks it, a flipped byte fails its CRC. Version 1 files (no {@code end} record) are
 * read as they are, unchecked.
 */
public final class SchedFile {
    public static final String MAGIC = "lockscope-sched";
    public static final int VERSION = 2;
    /** The version before the {@code end} record: still read, without a check. */
    private static final int UNCHECKED_VERSION = 1;
    /** Extension of the file stored next to a recording: {@code run.jfr} gets {@code run.sched}. */
    public static final String EXTENSION = ".sched";

    private SchedFile() {
    }

    /** {@code dir/name.jfr} becomes {@code dir/name.sched}; other names get the extension appended. */
    public static Path besideRecording(Path recording) {
        String name = recording.getFileName().toString();
        String base = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
        return recording.resolveSibling(base + EXTENSION);
    }

    /**
     * Writes {@code trace} to {@code file} as every file lockscope writes ({@link OutputFiles}): a new 0600
     * file of a random name beside it, renamed over it when complete, so no one else reads it (it names
     * the threads) and a symlink planted at {@code file} is replaced, not followed.
     */
    public static void write(SchedTrace trace, Path file) {
        Path tmp;
        try {
            tmp = OutputFiles.partFor(file, OutputFiles.OWNER_ONLY);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        try {
            try (LineWriter w = new LineWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS))) {
                w.line(MAGIC + "\t" + VERSION);
                w.line("source\t" + trace.source().fileName());
                if (trace.approximate()) {
                    w.line("approximate\t" + escape(trace.approximateReason()));
                }
                w.line("pid\t" + trace.pid());
                w.line("cpus\t" + trace.cpus());
                w.line("window\t" + trace.startNanos() + "\t" + trace.endNanos());
                if (trace.epochOffsetNanos() != SchedTrace.UNKNOWN_OFFSET) {
                    w.line("clock\t" + trace.epochOffsetNanos());
                }
                for (Map.Entry<Integer, String> e : new java.util.TreeMap<>(trace.names()).entrySet()) {
                    w.line("thread\t" + e.getKey() + "\t" + escape(e.getValue()));
                }
                StringBuilder line = new StringBuilder(40);
                for (Transition t : trace.transitions()) {
                    line.setLength(0);
                    line.append("t\t").append(t.nanos()).append('\t').append(t.tid()).append('\t')
                            .append(t.state().code());
                    w.line(line);
                }
                for (RunQueueWait q : trace.runQueueWaits()) {
                    w.line("rq\t" + q.nanos() + "\t" + q.tid() + "\t" + q.waitNanos());
                }
                w.end();
            }
            OutputFiles.moveOnto(tmp, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the part file is ours and random-named; a leftover harms no one
            }
        }
    }

    /** The lines of a file and the count and CRC-32 of what was written, for the {@code end} record. */
    private static final class LineWriter implements AutoCloseable {
        private final BufferedWriter out;
        private final LineCheck check = new LineCheck();

        LineWriter(BufferedWriter out) {
            this.out = out;
        }

        void line(CharSequence line) throws IOException {
            check.add(line);
            out.append(line).append('\n');
        }

        void end() throws IOException {
            out.write(check.endRecord() + "\n");
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** The count and CRC-32 of lines, each as its UTF-8 bytes and a newline: what the {@code end} record holds. */
    private static final class LineCheck {
        private final CRC32 crc = new CRC32();
        private long lines;

        void add(CharSequence line) {
            crc.update(StandardCharsets.UTF_8.encode(java.nio.CharBuffer.wrap(line)));
            crc.update('\n');
            lines++;
        }

        String endRecord() {
            return "end\t" + lines + "\t" + Long.toHexString(crc.getValue());
        }
    }

    /** Reads a .sched file; a malformed file gives a {@link SchedFormatException} naming the line. */
    public static SchedTrace read(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, file.toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new SchedFormatException(file + " is damaged: it is not UTF-8 text");
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file + " (no scheduling data: record with lockscope record)");
        }
    }

    static SchedTrace parse(BufferedReader r, String what) throws IOException {
        String header = r.readLine();
        if (header == null || !header.startsWith(MAGIC + "\t")) {
            throw new SchedFormatException(what + " is not a lockscope .sched file");
        }
        int version;
        try {
            version = Integer.parseInt(header.substring(MAGIC.length() + 1).trim());
        } catch (NumberFormatException e) {
            throw new SchedFormatException(what + " is damaged: its first line is '" + header + "'");
        }
        if (version != VERSION && version != UNCHECKED_VERSION) {
            throw new SchedFormatException(what + " has .sched version " + version + ", this lockscope reads "
                    + UNCHECKED_VERSION + " and " + VERSION);
        }
        boolean checked = version == VERSION;
        LineCheck check = new LineCheck();
        check.add(header);
        String endRecord = null;
        SchedSource source = null;
        String approximate = null;
        long pid = -1;
        int cpus = 0;
        long start = 0;
        long end = -1;
        long offset = SchedTrace.UNKNOWN_OFFSET;
        Map<Integer, String> names = new HashMap<>();
        List<Transition> transitions = new ArrayList<>();
        List<RunQueueWait> waits = new ArrayList<>();
        int lineNo = 1;
        String line;
        while ((line = r.readLine()) != null) {
            lineNo++;
            if (endRecord != null) {
                throw new SchedFormatException(what + ":" + lineNo + " is damaged: a line after its end record");
            }
            if (checked && line.startsWith("end\t")) {
                endRecord = line;
                continue;
            }
            if (checked) {
                check.add(line);
            }
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            try {
                switch (f[0]) {
                    case "t" -> transitions.add(new Transition(Long.parseLong(f[1]), Integer.parseInt(f[2]),
                            ThreadState.ofCode(f[3].charAt(0))));
                    case "rq" -> waits.add(new RunQueueWait(Long.parseLong(f[1]), Integer.parseInt(f[2]),
                            Long.parseLong(f[3])));
                    case "thread" -> names.put(Integer.parseInt(f[1]), unescape(f[2]));
                    case "source" -> source = SchedSource.valueOf(f[1].toUpperCase(java.util.Locale.ROOT));
                    case "approximate" -> approximate = unescape(f[1]);
                    case "pid" -> pid = Long.parseLong(f[1]);
                    case "cpus" -> cpus = Integer.parseInt(f[1]);
                    case "clock" -> offset = Long.parseLong(f[1]);
                    case "window" -> {
                        start = Long.parseLong(f[1]);
                        end = Long.parseLong(f[2]);
                    }
                    default -> { /* a later version's record: skip */ }
                }
            } catch (RuntimeException e) {
                throw new SchedFormatException(what + ":" + lineNo + " is damaged: malformed record '" + line + "'");
            }
        }
        if (checked && endRecord == null) {
            throw new SchedFormatException(what + " is cut: it ends at line " + lineNo + " without its end record");
        }
        if (checked && !endRecord.equals(check.endRecord())) {
            throw new SchedFormatException(what + " is damaged: its content does not match its end record (" + endRecord
                    .replace('\t', ' ') + ", the content gives " + check.endRecord().replace('\t', ' ') + ")");
        }
        if (source == null || end < start) {
            throw new SchedFormatException(what + " lacks its source or window record");
        }
        transitions.sort(java.util.Comparator.comparingLong(Transition::nanos));
        return new SchedTrace(source, approximate, pid, cpus, start, end, names, transitions, waits, offset);
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
