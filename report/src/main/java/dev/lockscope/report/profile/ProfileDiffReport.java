package dev.lockscope.report.profile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.ProfileDiff;
import dev.lockscope.report.html.HtmlReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code lockscope diff}'s text and its page (diff.html: the similarity table and a differential flame graph). */
public final class ProfileDiffReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int PATH_FRAMES_SHOWN = 3;

    private ProfileDiffReport() {
    }

    public static String text(ProfileDiff d, String a, String b, int top) {
        StringBuilder out = new StringBuilder();
        out.append(d.wall() ? "Wall-clock" : "CPU").append(" profiles compared: ").append(a).append(" (first) and ")
                .append(b).append(" (second)\n");
        out.append(String.format(Locale.ROOT, "  overlap: Σ over shared call paths of the smaller share (1 = same distribution)%n"
                + "  covers: share of the other's hot call paths (self time >= %.2f x its hottest) also hot here%n%n", d.threshold()));
        String unit = d.wall() ? "time" : "samples";
        out.append(String.format(Locale.ROOT, "  %-32s %10s %10s %8s %14s %14s%n", "thread group", unit + " 1", unit + " 2",
                "overlap", "1st covers 2nd", "2nd covers 1st"));
        for (ProfileDiff.Row r : d.rows()) {
            out.append(String.format(Locale.ROOT, "  %-32s %10s %10s %7.1f%% %13.1f%% %13.1f%%%n",
                    r.group() == null ? "all threads" : r.group(), weight(d, r.weightA()), weight(d, r.weightB()),
                    100 * r.overlap(), 100 * r.aCoversB(), 100 * r.bCoversA()));
        }
        List<ProfileDiff.Change> grew = new ArrayList<>();
        List<ProfileDiff.Change> shrank = new ArrayList<>();
        for (ProfileDiff.Change c : d.changes()) {
            (c.delta() > 0 ? grew : shrank).add(c);
        }
        changes(out, "Grew most (share of all time, first → second)", grew, top);
        changes(out, "Shrank most", shrank, top);
        return out.toString();
    }

    private static void changes(StringBuilder out, String title, List<ProfileDiff.Change> changes, int top) {
        out.append('\n').append(title).append('\n');
        if (changes.isEmpty()) {
            out.append("  none\n");
        }
        for (ProfileDiff.Change c : changes.subList(0, Math.min(top, changes.size()))) {
            out.append(String.format(Locale.ROOT, "  %+7.2f  %6.2f%% → %6.2f%%  %s%n", 100 * c.delta(), 100 * c.shareA(),
                    100 * c.shareB(), shortPath(c.path())));
        }
    }

    /** The thread group, then the innermost frames, the ones between counted. */
    private static String shortPath(List<String> path) {
        if (path.size() <= PATH_FRAMES_SHOWN + 1) {
            return String.join(" > ", path);
        }
        List<String> inner = path.subList(path.size() - PATH_FRAMES_SHOWN, path.size());
        return path.get(0) + " > [+" + (path.size() - 1 - PATH_FRAMES_SHOWN) + "] > " + String.join(" > ", inner);
    }

    private static String weight(ProfileDiff d, long w) {
        return d.wall() ? ProfileTextReport.seconds(w) : Long.toString(w);
    }

    /**
     * The page: the rows, and the second profile's tree with each node's change of share (its total's
     * share of all time, second minus first) as {@code [name, total, delta, children]}.
     */
    public static String html(ProfileDiff d, CallTree<String> first, CallTree<String> second, String a, String b) {
        ObjectNode data = MAPPER.createObjectNode();
        data.put("kind", d.wall() ? "wall-clock" : "CPU");
        data.put("unit", d.wall() ? "nanoseconds" : "samples");
        data.put("a", a);
        data.put("b", b);
        data.put("threshold", d.threshold());
        ArrayNode rows = data.putArray("rows");
        for (ProfileDiff.Row r : d.rows()) {
            ObjectNode o = rows.addObject();
            o.put("group", r.group());
            o.put("a", r.weightA());
            o.put("b", r.weightB());
            o.put("overlap", r.overlap());
            o.put("aCoversB", r.aCoversB());
            o.put("bCoversA", r.bCoversA());
        }
        Map<List<String>, Long> firstTotals = new HashMap<>();
        totals(first.root(), new ArrayList<>(), firstTotals);
        HtmlReport.StringTable strings = new HtmlReport.StringTable();
        data.set("tree", node(second.root(), new ArrayList<>(), firstTotals, first.totalWeight(), second.totalWeight(), strings));
        data.set("strings", strings.table());
        return HtmlReport.page("diff.html", data, a + " → " + b);
    }

    private static void totals(CallTree.Node<String> n, List<String> path, Map<List<String>, Long> out) {
        out.put(List.copyOf(path), n.totalWeight());
        for (CallTree.Node<String> c : n.children()) {
            path.add(c.frame());
            totals(c, path, out);
            path.remove(path.size() - 1);
        }
    }

    private static ArrayNode node(CallTree.Node<String> n, List<String> path, Map<List<String>, Long> firstTotals, long firstTotal,
                                  long secondTotal, HtmlReport.StringTable strings) {
        ArrayNode out = MAPPER.createArrayNode();
        out.add(strings.id(n.frame() == null ? "all" : n.frame()));
        out.add(n.totalWeight());
        double before = firstTotal == 0 ? 0 : (double) firstTotals.getOrDefault(path, 0L) / firstTotal;
        double after = secondTotal == 0 ? 0 : (double) n.totalWeight() / secondTotal;
        out.add(after - before);
        ArrayNode children = out.addArray();
        for (CallTree.Node<String> c : n.children()) {
            if (c.totalWeight() >= HtmlReport.FLAME_MIN_SHARE * secondTotal && c.totalWeight() > 0) {
                path.add(c.frame());
                children.add(node(c, path, firstTotals, firstTotal, secondTotal, strings));
                path.remove(path.size() - 1);
            }
        }
        return out;
    }
}
