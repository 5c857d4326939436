package dev.lockscope.bench;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.cli.LockscopeCli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code lockscope attach PID} then {@code lockscope attach PID --stop}, over and over, on one busy JVM
 * (the ArrayBlockingQueue pipeline): every cycle must succeed, every recording must be readable with
 * lockscope's park events in it, and the target must not keep a thread or a file handle per cycle.
 * The cycles run in one JVM of their own that calls the CLI in-process ({@link Cycler}), so a cycle
 * costs two attaches, not two JVM starts; the target's threads and descriptors are read from /proc.
 */
final class AttachCyclesHarness {
    private AttachCyclesHarness() {
    }

    static String section(BenchSettings settings) throws Exception {
        int cycles = settings.smoke() ? 3 : 1000;
        Path bench = settings.root().resolve("bench/target/lockscope-bench.jar");
        Path cli = settings.root().resolve("cli/target/lockscope.jar");
        Process target = new ProcessBuilder(settings.java(), "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading",
                "-cp", bench.toString(), LibraryWorkloads.class.getName(), "queue-pipeline", "4", "0", "86400")
                .redirectErrorStream(true).redirectOutput(settings.work().resolve("attach-target.txt").toFile()).start();
        String summary;
        try {
            Thread.sleep(2_000); // the JVM is up and its workload running
            Path log = settings.work().resolve("attach-cycles.txt");
            MeasuredProcess run = MeasuredProcess.run(List.of(settings.java(), "-cp", bench + java.io.File.pathSeparator + cli,
                    Cycler.class.getName(), Long.toString(target.pid()), Integer.toString(cycles), settings.work().toString()), log);
            summary = run.output().lines().filter(l -> l.startsWith("| ")).findFirst().orElse(null);
            if (run.exitCode() != 0 || summary == null) {
                settings.failures().incrementAndGet();
                summary = "| " + cycles + " | failed (exit " + run.exitCode() + "): see " + log + " | | | | |";
                System.err.println("attach-cycles: failed:\n" + run.tail());
            }
        } finally {
            target.destroy();
            target.waitFor(60, TimeUnit.SECONDS);
        }
        return "## Attach/stop cycles\n\n"
                + "`lockscope attach PID` and `lockscope attach PID --stop` in a loop on one JVM running the "
                + "ArrayBlockingQueue pipeline (4 threads); each recording is read back with JFR's parser. "
                + "File descriptors and lockscope threads of the target are read from /proc after each stop.\n\n"
                + "| cycles | failed cycles | unreadable recordings | target fds after cycle 1 → last | lockscope threads after the last stop | s per cycle |\n"
                + "|---|---|---|---|---|---|\n" + summary + "\n";
    }

    /** {@code Cycler PID CYCLES DIR}: runs the cycles and prints one markdown row; exit 1 on any failure. */
    public static final class Cycler {
        public static void main(String[] args) throws Exception {
            String pid = args[0];
            int cycles = Integer.parseInt(args[1]);
            Path dir = Path.of(args[2]);
            PrintStream realOut = System.out;
            // the tables the CLI prints go to a file: only the summary row is this process's output
            System.setOut(new PrintStream(Files.newOutputStream(dir.resolve("attach-tables.txt")), true));
            int failed = 0;
            int unreadable = 0;
            long firstFds = -1;
            long lastFds = -1;
            long began = System.nanoTime();
            for (int i = 1; i <= cycles; i++) {
                Path jfr = dir.resolve("cycle.jfr");
                int start = LockscopeCli.execute("attach", pid, "-o", jfr.toString());
                Thread.sleep(50); // some parks to record
                int stop = LockscopeCli.execute("attach", pid, "--stop");
                if (start != 0 || stop != 0) {
                    failed++;
                    System.err.println("cycle " + i + ": attach exit " + start + ", stop exit " + stop);
                } else if (parkEvents(jfr) == 0) {
                    unreadable++;
                    System.err.println("cycle " + i + ": the recording has no park events");
                }
                Files.deleteIfExists(jfr);
                lastFds = count("/proc/" + pid + "/fd");
                if (i == 1) {
                    firstFds = lastFds;
                }
            }
            double perCycle = (System.nanoTime() - began) / 1e9 / cycles;
            long threads = lockscopeThreads(pid);
            realOut.printf(Locale.ROOT, "| %d | %d | %d | %d → %d | %d | %.2f |%n", cycles, failed, unreadable, firstFds, lastFds,
                    threads, perCycle);
            boolean leaked = threads > 0 || lastFds > firstFds + 8; // a few descriptors come and go with the workload and JFR
            System.exit(failed > 0 || unreadable > 0 || leaked ? 1 : 0);
        }

        /** The parks in a recording, read as {@code lockscope report} reads it (one reader for everything). */
        private static long parkEvents(Path jfr) {
            long[] parks = {0};
            try {
                RecordingReader.read(jfr, new RecordingVisitor() {
                    @Override
                    public void parkEnd(ParkWait ended) {
                        parks[0]++;
                    }
                });
                return parks[0];
            } catch (RecordingException | RuntimeException e) {
                System.err.println(jfr + ": " + e.getMessage());
                return 0;
            }
        }

        private static long count(String dir) throws IOException {
            try (Stream<Path> s = Files.list(Path.of(dir))) {
                return s.count();
            }
        }

        /** Threads of the target whose OS name (the Java name, cut to 15 characters) starts with lockscope. */
        private static long lockscopeThreads(String pid) throws IOException {
            try (Stream<Path> tasks = Files.list(Path.of("/proc", pid, "task"))) {
                return tasks.filter(t -> {
                    try {
                        return Files.readString(t.resolve("comm")).startsWith("lockscope");
                    } catch (IOException gone) {
                        return false;
                    }
                }).count();
            }
        }
    }
}
