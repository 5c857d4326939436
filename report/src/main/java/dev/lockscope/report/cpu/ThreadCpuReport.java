package dev.lockscope.report.cpu;

import dev.lockscope.report.text.Prose;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.profile.ThreadCpuTimes;
import dev.lockscope.core.LockTable;

import java.util.List;
import java.util.Locale;

/**
 * The thread table with steal time, as text, JSON and an HTML fragment (siblings over one
 * {@link ThreadCpuTimes}), and the report header's line of the machine's steal per second.
 */
public final class ThreadCpuReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Threads shown in the text; JSON and HTML have all. */
    static final int TEXT_ROWS = 15;

    private ThreadCpuReport() {
    }

    /** The header's line: the machine's steal per second, or why there is none. */
    public static String headerLine(ThreadCpuTimes t) {
        if (t.problem() != null) {
            return "steal time: not sampled (" + t.problem() + ")";
        }
        if (!t.sampled()) {
            return "steal time: not sampled (the recording holds fewer than two CPU-time samples)";
        }
        return String.format(Locale.ROOT, "steal time: %.2f ms/s of %d CPUs (%.2f%% of their CPU time), over %.1f s sampled",
                t.stealNanosPerSecond() / 1e6, t.cpus(), 100 * t.stealShare(), t.sampledNanos() / 1e9);
    }

    /** What the steal and corrected columns mean on the kernel that was sampled. */
    static String kernelNote(ThreadCpuTimes t) {
        if (t.threadTimesExcludeSteal() == 1) {
            return "this kernel already leaves steal out of thread CPU times (CONFIG_PARAVIRT_TIME_ACCOUNTING): corrected = cpu; "
                    + "steal is each thread's share of the machine's steal, in proportion to its CPU time";
        }
        return "steal: the machine's steal divided among the threads in proportion to their CPU time per sample "
                + "(Hofer 2016, ch. 5); corrected = cpu - steal"
                + (t.threadTimesExcludeSteal() < 0 ? " (the kernel does not say whether thread times hold steal: assumed they do)" : "");
    }

    /** "CPU per thread" with the first {@code top} threads (at most {@value #TEXT_ROWS}); empty without samples. */
    public static String text(ThreadCpuTimes t, int top) {
        if (!t.sampled()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%nCPU per thread (%d samples over %.1f s; steal %.1f ms of the machine's, %.1f ms of it this JVM's):%n",
                t.samples(), t.sampledNanos() / 1e9, t.machineStealNanos() / 1e6, t.jvmStealNanos() / 1e6));
        sb.append(String.format(Locale.ROOT, "  %-40s %8s %12s %10s %13s%n", "thread", "os tid", "cpu ms", "steal ms", "corrected ms"));
        List<ThreadCpuTimes.Row> rows = t.threads().stream().filter(r -> r.cpuNanos() > 0).toList();
        int shown = Math.min(Math.min(top, TEXT_ROWS), rows.size());
        for (ThreadCpuTimes.Row r : rows.subList(0, shown)) {
            sb.append(String.format(Locale.ROOT, "  %-40s %8d %12.2f %10.2f %13.2f%n", LockTable.abbreviate(r.name(), 40),
                    r.osTid(), r.cpuNanos() / 1e6, r.stealNanos() / 1e6, r.correctedNanos() / 1e6));
        }
        long jvmCorrected = t.threads().stream().mapToLong(ThreadCpuTimes.Row::correctedNanos).sum();
        sb.append(String.format(Locale.ROOT, "  %-40s %8s %12.2f %10.2f %13.2f%n", "all " + t.threads().size() + " threads", "",
                t.jvmCpuNanos() / 1e6, t.jvmStealNanos() / 1e6, jvmCorrected / 1e6));
        if (rows.size() > shown) {
            sb.append("  (").append(rows.size() - shown).append(" more threads that used CPU; JSON and HTML have all)\n");
        }
        LockTable.wrap(sb, kernelNote(t), "  ", "  ");
        return sb.toString();
    }

    /**
     * {@code cpuTimes}: {@code problem}, {@code samples}, {@code sampledNanos}, {@code cpus},
     * {@code machineBusyNanos}, {@code machineStealNanos}, {@code stealNanosPerSecond},
     * {@code threadTimesExcludeSteal}, {@code threads[]} ({@code name}, {@code osTid}, {@code cpuNanos},
     * {@code stealNanos}, {@code correctedNanos}), most CPU first.
     */
    public static ObjectNode json(ThreadCpuTimes t) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("problem", t.problem());
        o.put("samples", t.samples());
        o.put("sampledNanos", t.sampledNanos());
        o.put("cpus", t.cpus());
        o.put("machineBusyNanos", t.machineBusyNanos());
        o.put("machineStealNanos", t.machineStealNanos());
        o.put("stealNanosPerSecond", Math.round(t.stealNanosPerSecond()));
        o.put("threadTimesExcludeSteal", t.threadTimesExcludeSteal());
        ArrayNode threads = o.putArray("threads");
        for (ThreadCpuTimes.Row r : t.threads()) {
            threads.addObject().put("name", r.name()).put("osTid", r.osTid()).put("cpuNanos", r.cpuNanos())
                    .put("stealNanos", r.stealNanos()).put("correctedNanos", r.correctedNanos());
        }
        return o;
    }

    /** The HTML page's section: the header line, then every thread that used CPU. */
    public static String html(ThreadCpuTimes t) {
        StringBuilder sb = new StringBuilder("<p>").append(esc(headerLine(t))).append("</p>");
        if (!t.sampled()) {
            return sb.toString();
        }
        sb.append("<p class=\"hint\">").append(esc(kernelNote(t))).append("</p>");
        sb.append("<div class=\"scroll\"><table class=\"deep\"><tr><th>thread</th><th>os tid</th><th>cpu ms</th>"
                + "<th>steal ms</th><th>corrected ms</th></tr>");
        for (ThreadCpuTimes.Row r : t.threads()) {
            if (r.cpuNanos() > 0) {
                sb.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>",
                        esc(r.name()), r.osTid(), r.cpuNanos() / 1e6, r.stealNanos() / 1e6, r.correctedNanos() / 1e6));
            }
        }
        return sb.append("</table></div>").toString();
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
