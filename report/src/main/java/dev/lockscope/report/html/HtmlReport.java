package dev.lockscope.report.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.report.JsonReport;
import dev.lockscope.core.LockTable;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.bottle.BottleJson;
import dev.lockscope.report.bottle.BottleSvg;
import dev.lockscope.report.cpu.ThreadCpuReport;
import dev.lockscope.report.deep.DeepHtml;
import dev.lockscope.report.model.BlameKeys;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.Timeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The interactive report: one self-contained HTML page (no network access when viewed) made of the
 * template {@code report.html}, its stylesheet and script, the vendor bundle built by
 * {@code scripts/build-web.sh}, and the report embedded as JSON, which the page's script renders.
 * The page computes nothing that Java has computed: every blame row carries its key under every
 * {@link Aspect}, and the page's trees group by those keys. See docs/html-report.md.
 */
public final class HtmlReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] RESOURCES = {"report.html", "report.css", "report.js", "vendor.css", "vendor.min.js",
            "diff.html", "diff.js"};

    private HtmlReport() {
    }

    public static String render(Report report) {
        return page(data(report), report.contention().source().toString());
    }

    /**
     * Members of the JSON report's table that the page does not read: it carries only what it shows
     * (the per-object list of the lock sites, the rule behind each lock's wait class, and the contract's
     * bookkeeping stay in the JSON report). The wait class stays: the lock table leaves the idle locks out.
     */
    private static final List<String> NOT_SHOWN = List.of("schemaVersion", "options", "locksBelowPrintThreshold", "sampledParks", "stackBudget",
            "profilersOwnWaits", "instances", "recordings");
    private static final List<String> LOCK_FIELDS_NOT_SHOWN = List.of("totalExecutionNanos", "site", "instances",
            "waitRule", "waitPerRecordingNanos");

    /** What the page's script reads (docs/html-report.md): the report, blame in a compact form. */
    static ObjectNode data(Report report) {
        ObjectNode data = JsonReport.table(report.contention());
        JsonReport.handoffHolds(data, report);
        JsonReport.waits(data, report);
        data.remove(NOT_SHOWN);
        if (report.contention().sampledParks() > 0) {
            data.put("sampledParksNote", TextReport.sampledParksNote(report.contention().sampledParks()));
        }
        if (report.contention().stackBudget().dropped()) {
            data.put("stackBudgetNote", TextReport.stackBudgetNote(report.contention().stackBudget()));
        }
        if (report.contention().profilersOwnWaits() > 0) {
            data.put("profilersOwnNote", LockTable.profilersOwnNote(report.contention().profilersOwnWaits()));
        }
        ((ObjectNode) data.get("recording")).remove("startEpochNanos");
        data.get("locks").forEach(lock -> ((ObjectNode) lock).remove(LOCK_FIELDS_NOT_SHOWN));
        ArrayNode findings = data.putArray("findings");
        report.findings().forEach(f -> findings.add(JsonReport.rule(f)));
        ArrayNode rules = data.putArray("rules");
        report.rules().forEach(r -> rules.add(JsonReport.rule(r)));
        data.set("blame", blame(report.blame(), report.contention().rowLabels()));
        JsonReport.whatWouldHelp(data, report);
        if (report.bottles() != null) {
            ObjectNode bottle = BottleJson.fragment(report.bottles().whole());
            bottle.put("svg", BottleSvg.render(List.of(report.bottles().whole()), false));
            data.set("bottleGraph", bottle);
        }
        if (report.timeline() != null) {
            data.set("timeline", timeline(report.timeline()));
        }
        if (report.profiles() != null) {
            data.set("profiles", profiles(report.profiles()));
        }
        if (report.deep() != null) {
            data.putObject("deep").put("html", DeepHtml.fragment(report.deep()));
        }
        if (report.cpuTimes() != null) {
            data.putObject("cpuTimes").put("html", ThreadCpuReport.html(report.cpuTimes()));
        }
        return data;
    }

    /** Below this share of a tree's total a node is left out of the page (its time stays in its parent's total). */
    public static final double FLAME_MIN_SHARE = 1e-4;

    /**
     * The CPU and wall-clock trees (docs/html-report.md): {@code strings}, and per tree a root of the
     * form {@code [name index, total nanoseconds, [children...]]}, nodes below {@link #FLAME_MIN_SHARE}
     * of the total left out.
     */
    private static ObjectNode profiles(Profiles p) {
        ObjectNode o = MAPPER.createObjectNode();
        StringTable strings = new StringTable();
        o.put("periodNanos", p.samplingPeriodNanos());
        o.put("cpuSamples", p.cpuSamples());
        o.put("wallRunningNanos", p.wallRunningNanos());
        o.set("cpu", flameNode(p.cpu().root(), p.samplingPeriodNanos(), strings, p.cpu().totalWeight()));
        o.set("wall", flameNode(p.wall().root(), 1, strings, p.wall().totalWeight()));
        o.set("strings", strings.table());
        return o;
    }

    /** A tree node as the page reads it; {@code scale} turns weights into nanoseconds. */
    public static ArrayNode flameNode(CallTree.Node<String> node, long scale, StringTable strings, long rootTotal) {
        ArrayNode n = MAPPER.createArrayNode();
        n.add(strings.id(node.frame() == null ? "all" : node.frame()));
        n.add(node.totalWeight() * scale);
        ArrayNode children = n.addArray();
        for (CallTree.Node<String> c : node.children()) {
            if (c.totalWeight() >= FLAME_MIN_SHARE * rootTotal && c.totalWeight() > 0) {
                children.add(flameNode(c, scale, strings, rootTotal));
            }
        }
        return n;
    }

    /**
     * Blame rows with every string once: {@code strings} (a table), {@code aspects} (labels, in
     * {@link Aspect} order), {@code groupBy} (the tree the CLI prints), {@code chains} (frame lists
     * as string indices) and {@code rows}, a flat array of, per row, one key index per aspect, the
     * waiter and owner chain indices, nanoseconds and count; each lock named as the table names its row ({@code lockNames}).
     */
    private static ObjectNode blame(BlameSummary blame, java.util.function.Function<dev.lockscope.core.LockId, String> lockNames) {
        ObjectNode o = MAPPER.createObjectNode();
        StringTable strings = new StringTable();
        ArrayNode aspects = o.putArray("aspects");
        for (Aspect a : Aspect.values()) {
            aspects.add(a.label());
        }
        ArrayNode groupBy = o.putArray("groupBy");
        blame.groupBy().forEach(a -> groupBy.add(a.label()));
        o.put("totalNanos", blame.totalNanos());
        ArrayNode chains = MAPPER.createArrayNode();
        Map<List<String>, Integer> chainIds = new HashMap<>();
        ArrayNode rows = MAPPER.createArrayNode();
        for (BlameRow r : blame.rows()) {
            for (Aspect a : Aspect.values()) {
                rows.add(strings.id(BlameKeys.key(r, a, blame.raw(), lockNames)));
            }
            rows.add(chain(r.waiterFrames(), chainIds, chains, strings));
            rows.add(chain(r.ownerFrames(), chainIds, chains, strings));
            rows.add(r.nanos());
            rows.add(r.count());
        }
        o.set("strings", strings.table);
        o.set("chains", chains);
        o.set("rows", rows);
        return o;
    }

    private static int chain(List<String> frames, Map<List<String>, Integer> ids, ArrayNode chains, StringTable strings) {
        return ids.computeIfAbsent(frames, k -> {
            ArrayNode c = chains.addArray();
            k.forEach(f -> c.add(strings.id(f)));
            return chains.size() - 1;
        });
    }

    private static ObjectNode timeline(Timeline t) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("durationMicros", t.durationMicros());
        ArrayNode states = o.putArray("states");
        t.states().forEach(states::add);
        ArrayNode locks = o.putArray("locks");
        t.locks().forEach(locks::add);
        ArrayNode carriers = o.putArray("carriers");
        t.carriers().forEach(carriers::add);
        o.put("threadsLeftOut", t.threadsLeftOut());
        ArrayNode threads = o.putArray("threads");
        for (Timeline.Track track : t.threads()) {
            ObjectNode th = threads.addObject();
            th.put("name", track.name());
            th.put("javaTid", track.javaTid());
            ArrayNode spans = th.putArray("spans");
            for (long v : track.spans()) {
                spans.add(v);
            }
        }
        o.put("spansLeftOut", t.spansLeftOut());
        return o;
    }

    /** Strings by first use, each once. */
    public static final class StringTable {
        private final Map<String, Integer> ids = new HashMap<>();
        private final ArrayNode table = MAPPER.createArrayNode();

        public ArrayNode table() {
            return table;
        }

        public int id(String s) {
            return ids.computeIfAbsent(s, k -> {
                table.add(k);
                return table.size() - 1;
            });
        }
    }

    static String page(ObjectNode data, String title) {
        return page("report.html", data, title);
    }

    /** A page of {@code template} (report.html, diff.html) with {@code data} and the parts it names. */
    public static String page(String template, ObjectNode data, String title) {
        Map<String, String> parts = new HashMap<>();
        for (String name : RESOURCES) {
            parts.put(name, resource(name));
        }
        String json;
        try {
            json = MAPPER.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the report data", e);
        }
        // '<' occurs in JSON only inside strings, where \u003c means the same: thread or class names
        // can then never close the <script> element that holds the data.
        json = json.replace("<", "\\u003c");
        String page = parts.get(template);
        // One pass over the markers, so text inserted for one marker is never searched for another.
        StringBuilder out = new StringBuilder(page.length() + json.length() + 100_000);
        int at = 0;
        while (true) {
            int open = page.indexOf("{{", at);
            if (open < 0) {
                break;
            }
            int close = page.indexOf("}}", open);
            out.append(page, at, open);
            String marker = page.substring(open + 2, close);
            out.append(switch (marker) {
                case "title" -> escapeHtml(title);
                case "data" -> json;
                default -> inline(parts.get(marker), marker);
            });
            at = close + 2;
        }
        out.append(page, at, page.length());
        return out.toString();
    }

    private static String inline(String text, String name) {
        if (text == null) {
            throw new IllegalStateException("report.html names an unknown part: " + name);
        }
        if (text.contains("</script") || text.contains("</style")) {
            throw new IllegalStateException(name + " would close its element early: rebuild it with scripts/build-web.sh");
        }
        return text;
    }

    private static String escapeHtml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " in lockscope-report");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
