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

/**
 * {@code lockscope diff}'s renderings of one {@link ProfileDiff}: the text, the JSON (docs/json-schema.md,
 * "lockscope diff --format json") and the page (diff.html: the similarity table and a differential flame graph).
 */
public final class ProfileDiffReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int PATH_FRAMES_SHOWN = 3;
    /** Version of the {@code diff --format json} schema; bumped when a field is renamed, removed or changes meaning. */
    public static final int SCHEMA_VERSION = 1;

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
        changes(out, "Grew most (share of all time, first → second)", grew(d, top));
        changes(out, "Shrank most", shrank(d, top));
        return out.toString();
    }

    /**
     * The JSON: the same rows as the text and the page, and the {@code top} call paths that grew and
     * shrank most, as the text lists them.
     */
    public static String json(ProfileDiff d, String a, String b, int top) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", SCHEMA_VERSION);
        header(root, d, a, b);
        ArrayNode grew = root.putArray("grew");
        grew(d, top).forEach(c -> change(grew.addObject(), c));
        ArrayNode shrank = root.putArray("shrank");
        shrank(d, top).forEach(c -> change(shrank.addObject(), c));
        return dev.lockscope.report.JsonReport.write(root);
    }

    /** What the JSON and the page share: the profiles compared, the threshold, and one row per thread group. */
    private static void header(ObjectNode data, ProfileDiff d, String a, String b) {
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
    }

    private static void change(ObjectNode o, ProfileDiff.Change c) {
        ArrayNode path = o.putArray("path");
        c.path().forEach(path::add);
        o.put("shareA", c.shareA());
        o.put("shareB", c.shareB());
        o.put("delta", c.delta());
    }

    /** The {@code top} call paths whose share grew most, largest change first. */
    private static List<ProfileDiff.Change> grew(ProfileDiff d, int top) {
        return d.changes().stream().filter(c -> c.delta() > 0).limit(top).toList();
    }

    /** The {@code top} call paths whose share shrank most, largest change first (an unchanged path is in neither list). */
    private static List<ProfileDiff.Change> shrank(ProfileDiff d, int top) {
        return d.changes().stream().filter(c -> c.delta() < 0).limit(top).toList();
    }

    private static void changes(StringBuilder out, String title, List<ProfileDiff.Change> changes) {
        out.append('\n').append(title).append('\n');
        if (changes.isEmpty()) {
            out.append("  none\n");
        }
        for (ProfileDiff.Change c : changes) {
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
        header(data, d, a, b);
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
