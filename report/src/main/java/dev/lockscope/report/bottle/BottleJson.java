package dev.lockscope.report.bottle;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.bottle.BottleGraph;
import dev.lockscope.analysis.bottle.GroupBox;
import dev.lockscope.analysis.bottle.NeckExplainer;
import dev.lockscope.analysis.bottle.ThreadBox;

import java.util.List;

/**
 * The {@code bottleGraph} JSON fragment: {@code threads[]} with {@code name, osTid, group, kind,
 * shareNanos, parallelism, runningNanos, preemptedNanos} (and {@code stealNanos} when the recording sampled
 * steal time), {@code groups[]}, window and machine
 * figures, {@code approximate} (null when exact), {@code warning}; with slices, {@code slices[]} of
 * the same shape. Boxes are listed bottom (widest) first. Nanosecond values are rounded to integers.
 */
public final class BottleJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private BottleJson() {
    }

    /** {@code {"bottleGraph": {...}}}; slices are added when there is more than one graph. */
    public static ObjectNode document(BottleGraph whole, List<BottleGraph> slices) {
        return document(whole, slices, List.of());
    }

    /** With {@code necks[]}: {@code name, osTid, aloneNanos, others[] {state, detail, nanos, threads}}. */
    public static ObjectNode document(BottleGraph whole, List<BottleGraph> slices, List<NeckExplainer.Neck> necks) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode g = fragment(whole);
        if (!necks.isEmpty()) {
            ArrayNode arr = g.putArray("necks");
            for (NeckExplainer.Neck n : necks) {
                ObjectNode o = arr.addObject();
                o.put("name", n.thread().name());
                o.put("osTid", n.thread().osTid());
                o.put("aloneNanos", n.aloneNanos());
                ArrayNode others = o.putArray("others");
                for (NeckExplainer.Activity a : n.others()) {
                    others.addObject().put("state", a.state()).put("detail", a.detail()).put("nanos", a.nanos())
                            .put("threads", a.threads());
                }
            }
        }
        if (slices.size() > 1) {
            ArrayNode arr = g.putArray("slices");
            slices.forEach(s -> arr.add(fragment(s)));
        }
        root.set("bottleGraph", g);
        return root;
    }

    public static ObjectNode fragment(BottleGraph bg) {
        ObjectNode g = MAPPER.createObjectNode();
        g.put("source", bg.source());
        g.put("approximate", bg.approximateReason());
        g.put("warning", bg.machineBoundWarning());
        g.put("fromNanos", bg.fromNanos());
        g.put("toNanos", bg.toNanos());
        g.put("wallNanos", bg.wallNanos());
        g.put("busyNanos", bg.busyNanos());
        g.put("cpus", bg.cpus());
        if (bg.maxRunnable() > 0) {
            g.put("maxRunnable", bg.maxRunnable());
            g.put("oversubscribedNanos", bg.oversubscribedNanos());
        }
        ArrayNode threads = g.putArray("threads");
        for (ThreadBox t : bg.threads()) {
            ObjectNode n = threads.addObject();
            n.put("name", t.name());
            if (t.isVirtual()) {
                n.putNull("osTid"); // virtual threads run on carriers, whose boxes keep only the time they ran none
                n.put("virtualThreads", t.virtualThreads());
            } else {
                n.put("osTid", t.osTid());
            }
            n.put("group", t.group());
            n.put("kind", t.kind().name());
            n.put("shareNanos", t.share().roundedLong());
            n.put("parallelism", t.parallelism().doubleValue());
            n.put("runningNanos", t.running().roundedLong());
            n.put("preemptedNanos", t.preemptedNanos());
            if (bg.hasSteal()) {
                n.put("stealNanos", bg.stealNanos(t));
            }
        }
        ArrayNode groups = g.putArray("groups");
        for (GroupBox x : bg.groups()) {
            ObjectNode n = groups.addObject();
            n.put("name", x.name());
            n.put("kind", x.kind().name());
            n.put("threads", x.threads());
            n.put("shareNanos", x.share().roundedLong());
            n.put("parallelism", x.parallelism().doubleValue());
            n.put("runningNanos", x.running().roundedLong());
            n.put("preemptedNanos", x.preemptedNanos());
            if (bg.hasSteal()) {
                n.put("stealNanos", bg.stealNanos(x));
            }
        }
        return g;
    }

    public static String render(BottleGraph whole, List<BottleGraph> slices) {
        return render(whole, slices, List.of());
    }

    public static String render(BottleGraph whole, List<BottleGraph> slices, List<NeckExplainer.Neck> necks) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(document(whole, slices, necks)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
