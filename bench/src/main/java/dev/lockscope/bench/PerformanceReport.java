package dev.lockscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generates docs/PERFORMANCE.md whole: the command, date, machine and JDK, then one section per measurement
 * (overhead of every profiler configuration, accuracy against ground truth, analysis speed), every number from
 * this run; the sections' raw tables go to a data file beside it (docs/performance-data.tsv), not into the page.
 * {@code scripts/performance.sh} builds lockscope and runs this.
 */
public final class PerformanceReport {
    /** A section of the report: its name for {@code --only}, and how it is measured. */
    interface Section {
        String markdown(BenchSettings settings) throws Exception;
    }

    private static final Map<String, Section> SECTIONS = new LinkedHashMap<>();

    static {
        SECTIONS.put("overhead", OverheadHarness::section);
        SECTIONS.put("accuracy", AccuracyHarness::section);
        SECTIONS.put("owner-sampling", OwnerSamplingHarness::section);
        SECTIONS.put("whatif", WhatIfHarness::section);
        SECTIONS.put("analysis-speed", AnalysisSpeedHarness::section);
        SECTIONS.put("attach-cycles", AttachCyclesHarness::section);
        SECTIONS.put("soak", SoakHarness::section);
        SECTIONS.put("fuzz", FuzzHarness::section);
        SECTIONS.put("profile-agreement", ProfileAgreementHarness::section);
    }

    /** Sections run only when named in --only (an hour each; never in CI's smoke run). */
    private static final Set<String> ON_REQUEST = Set.of("soak");

    private PerformanceReport() {
    }

    private static final String USAGE = """
            usage: performance.sh [--repeats N] [--smoke] [--only SECTION[,SECTION]] [--out FILE] [--java PATH]
              --repeats N   repetitions of every measurement (default 5)
              --smoke       one short repetition of everything; fails when a run produced no number (CI)
              --only LIST   sections to run: %s (default: all)
              --workloads LIST, --configs LIST
                            overhead section: only these workloads / configurations (none is always kept);
                            --workloads also picks the accuracy section's workloads
              --agent NAME=JAR[@OPTIONS]
                            overhead section: one more configuration, the agent JAR with extra agent
                            OPTIONS (repeatable: e.g. --agent main=/tmp/main.jar
                            --agent new=agent/target/lockscope-agent.jar --configs none)
              --baseline-cli JAR
                            analysis-speed section: also time this lockscope.jar (another build), interleaved
              --sizes LIST  analysis-speed section: recording sizes in MB (default 10,100,1024)
              --out FILE    where to write (default docs/PERFORMANCE.md; its raw numbers beside it: docs/performance-data.tsv)
              --java PATH   the JVM that runs the workloads (default: the one running this)
              --soak-duration D  soak section (only with --only soak): how long, e.g. 2m, 1h (default 1h)
              --soak-jvm OPTIONS soak section: the JVM's heap options, space-separated
                            (default -Xms512m -Xmx512m -XX:+AlwaysPreTouch)""";

    public static void main(String[] args) throws Exception {
        int repeats = 5;
        boolean smoke = false;
        Path out = Path.of("docs/PERFORMANCE.md");
        Path root = Path.of(".");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> only = new ArrayList<>(SECTIONS.keySet());
        only.removeAll(ON_REQUEST);
        Duration soakDuration = Duration.ofHours(1);
        Set<String> workloads = Set.of();
        Set<String> configs = Set.of();
        Map<String, String> agents = new LinkedHashMap<>();
        Path baselineCli = null;
        List<Long> sizes = List.of();
        List<String> soakJvm = List.of();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--repeats" -> repeats = count(args[++i]);
                    case "--smoke" -> smoke = true;
                    case "--out" -> out = Path.of(args[++i]);
                    case "--root" -> root = Path.of(args[++i]);
                    case "--java" -> java = args[++i];
                    case "--only" -> only = List.of(args[++i].split(","));
                    case "--workloads" -> workloads = Set.of(args[++i].split(","));
                    case "--configs" -> configs = Set.of(args[++i].split(","));
                    case "--agent" -> {
                        String spec = args[++i];
                        int eq = spec.indexOf('=');
                        if (eq <= 0 || !Files.isRegularFile(Path.of(spec.substring(eq + 1).split("@", 2)[0]))) {
                            throw new IllegalArgumentException("--agent needs NAME=JAR[@OPTIONS] with an existing jar, not '" + spec + "'");
                        }
                        agents.put(spec.substring(0, eq), spec.substring(eq + 1));
                    }
                    case "--soak-duration" -> soakDuration = Duration.ofNanos(
                            dev.lockscope.core.OptionValues.maxAge("--soak-duration", args[++i]));
                    case "--soak-jvm" -> soakJvm = List.of(args[++i].trim().split("\\s+"));
                    case "--baseline-cli" -> baselineCli = Path.of(args[++i]).toAbsolutePath();
                    case "--sizes" -> sizes = sizes(args[++i]);
                    case "--help", "-h" -> {
                        System.out.println(String.format(USAGE, String.join(", ", SECTIONS.keySet())));
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            for (String s : only) {
                if (!SECTIONS.containsKey(s)) {
                    throw new IllegalArgumentException("unknown section " + s);
                }
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("--repeats must be at least 1");
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            System.err.println("performance: " + (e instanceof ArrayIndexOutOfBoundsException ? "missing value" : e.getMessage()));
            System.err.println(String.format(USAGE, String.join(", ", SECTIONS.keySet())));
            System.exit(2);
        }
        BenchSettings settings = new BenchSettings(root.toAbsolutePath().normalize(), java, repeats, smoke,
                Files.createTempDirectory("lockscope-bench"), new AtomicInteger(), workloads, configs, agents, soakDuration,
                baselineCli, sizes, soakJvm);
        StringBuilder md = new StringBuilder();
        md.append("# lockscope performance\n\n");
        md.append("Generated by `scripts/performance.sh").append(shown(args))
                .append("` on ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append(".\n\n");
        md.append("- Machine: ").append(machine()).append("\n");
        md.append("- JDK: ").append(javaVersion(java)).append("\n");
        md.append("- Sections: ").append(String.join(", ", only)).append("\n\n");
        for (String name : only) {
            System.err.println("performance: measuring " + name);
            md.append(SECTIONS.get(name).markdown(settings)).append('\n');
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Path data = dataFileBeside(out);
        Split split = splitRawData(md.toString(), data.getFileName().toString());
        Files.writeString(out, split.page());
        Files.writeString(data, split.data());
        System.err.println("performance: wrote " + out + " and " + data);
        if (smoke && settings.failures().get() > 0) {
            System.err.println("performance: " + settings.failures().get() + " run(s) produced no number (see above)");
            System.exit(1);
        }
    }

    /** The page without its raw tables, and those tables as tab-separated blocks. */
    record Split(String page, String data) {
    }

    /** docs/PERFORMANCE.md -> docs/performance-data.tsv; target/performance-smoke.md -> target/performance-smoke-data.tsv. */
    static Path dataFileBeside(Path page) {
        String name = page.getFileName().toString();
        String stem = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        return page.resolveSibling(stem.toLowerCase(java.util.Locale.ROOT) + "-data.tsv");
    }

    /**
     * Moves every table under a heading that starts with "Raw" (each harness's runs one by one) out of the page into
     * the data file: one block per table, a "# SECTION / HEADING" line, the column names, then one line per row,
     * tab-separated; the page keeps the heading and a line naming the block.
     */
    static Split splitRawData(String markdown, String dataFileName) {
        StringBuilder page = new StringBuilder();
        StringBuilder data = new StringBuilder("# The raw numbers of the page beside this file, one block per table:"
                + " a '# SECTION / TABLE' line, the column names, one line per run; tab-separated.\n");
        String section = "";
        String raw = null;
        boolean inTable = false;
        for (String line : markdown.split("\n", -1)) {
            if (line.startsWith("## ")) {
                section = line.substring(3).trim();
            }
            if (line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "");
                raw = heading.startsWith("Raw") ? heading : null;
                inTable = false;
                page.append(line).append('\n');
                continue;
            }
            if (raw != null && line.startsWith("|")) {
                if (!inTable) {
                    data.append('\n').append("# ").append(section).append(" / ").append(raw).append('\n');
                    page.append("In [").append(dataFileName).append("](").append(dataFileName).append("), block `")
                            .append(section).append(" / ").append(raw).append("`.\n");
                    inTable = true;
                }
                if (!line.matches("\\|[-| :]*\\|\\s*")) { // not the separator row
                    String inner = line.trim().replaceFirst("^\\|", "").replaceFirst("\\|$", "");
                    List<String> cells = new ArrayList<>();
                    for (String cell : inner.split("\\|", -1)) {
                        cells.add(cell.trim());
                    }
                    data.append(String.join("\t", cells)).append('\n');
                }
                continue;
            }
            page.append(line).append('\n');
        }
        String text = page.toString();
        return new Split(text.substring(0, text.length() - 1), data.toString());
    }

    private static int count(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--repeats needs a whole number, not '" + text + "'");
        }
    }

    private static List<Long> sizes(String list) {
        List<Long> out = new ArrayList<>();
        for (String mb : list.split(",")) {
            try {
                out.add(Long.parseLong(mb.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--sizes needs whole numbers of MB, not '" + mb + "'");
            }
            if (out.get(out.size() - 1) < 1) {
                throw new IllegalArgumentException("--sizes must be at least 1 MB");
            }
        }
        return List.copyOf(out);
    }

    /** The arguments as the user gave them to the script (which adds --root itself). */
    private static String shown(String[] args) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--root")) {
                i++;
            } else {
                out.append(' ').append(args[i]);
            }
        }
        return out.toString();
    }

    private static String machine() {
        String cpu = "?";
        long memKb = 0;
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("?");
            memKb = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .findFirst().map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).orElse(0L);
        } catch (IOException | RuntimeException ignored) {
            // keep what was read
        }
        return Runtime.getRuntime().availableProcessors() + " CPUs (" + cpu + "), " + memKb / 1024 + " MB RAM; "
                + "the machine is shared, so absolute numbers vary between runs";
    }

    static String javaVersion(String java) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
        String v = new String(p.getInputStream().readAllBytes()).lines().findFirst().orElse("?");
        p.waitFor();
        return v + " (" + java + ")";
    }
}
