package dev.lockscope.report.scale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.scale.LayerWalk;
import dev.lockscope.analysis.scale.LockGrowth;
import dev.lockscope.analysis.scale.SweepPoint;
import dev.lockscope.analysis.scale.SweepResult;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The sweep as JSON. Contract: {@code points} (each with {@code threads}, {@code cpus},
 * {@code throughput}, {@code speedup}, {@code efficiency}, {@code recording}), {@code knee} and
 * {@code peak} (each with {@code threads} and {@code cpus}, or null), {@code locks} ranked by growth
 * (each with {@code className}, {@code ownerFrames} and {@code threadTimeNanos} per point, in the
 * order of {@code points}). Unknown numbers (a failed point) are null. Fields are only ever added.
 */
public final class ScaleJsonReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScaleJsonReport() {
    }

    public static String render(SweepResult r, SweepContext ctx) {
        try {
            return JSON.writeValueAsString(tree(r, ctx)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode tree(SweepResult r, SweepContext ctx) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode command = root.putArray("command");
        ctx.command().forEach(command::add);
        root.put("efficiencyThreshold", r.threshold());
        root.put("mainCpus", r.mainCpus());
        ArrayNode points = root.putArray("points");
        for (SweepPoint p : r.points()) {
            ObjectNode o = points.addObject();
            o.put("threads", p.threads());
            o.put("cpus", p.cpus());
            number(o, "throughput", p.throughput());
            number(o, "speedup", p.speedup());
            number(o, "idealSpeedup", p.idealSpeedup());
            number(o, "efficiency", p.efficiency());
            path(o, "recording", p.recording());
            ArrayNode recs = o.putArray("recordings");
            p.recordings().forEach(x -> recs.add(x.toString()));
            o.put("runs", p.runs());
            ArrayNode failures = o.putArray("failures");
            p.failures().forEach(failures::add);
        }
        point(root, "knee", r.knee());
        point(root, "peak", r.peak());
        point(root, "growthFrom", r.before());
        point(root, "growthTo", r.after());
        ArrayNode locks = root.putArray("locks");
        int rank = 0;
        for (LockGrowth l : r.locks()) {
            ObjectNode o = locks.addObject();
            o.put("rank", ++rank);
            o.put("kind", l.kind().label());
            o.put("className", l.className());
            o.put("site", l.site());
            o.put("layer", l.layer().label());
            o.put("waiterMethod", l.waiterMethod());
            strings(o, "waiterFrames", l.waiterFrames());
            o.put("ownerMethod", l.ownerMethod());
            o.put("ownerLayer", l.ownerLayer().label());
            strings(o, "ownerFrames", l.ownerFrames());
            o.put("ownerSource", l.ownerSource());
            strings(o, "waiterThreads", l.waiterThreads());
            ArrayNode times = o.putArray("threadTimeNanos");
            l.threadTimeNanos().forEach(times::add);
            ArrayNode shares = o.putArray("shares");
            l.shares().forEach(shares::add);
            o.put("shareBefore", l.shareBefore());
            o.put("shareAfter", l.shareAfter());
            o.put("growth", l.growth());
        }
        ArrayNode layers = root.putArray("layers");
        for (LayerWalk.Step s : r.walk().steps()) {
            ObjectNode o = layers.addObject();
            o.put("layer", s.layer().label());
            o.put("description", s.layer().description());
            ArrayNode growing = o.putArray("growingLocks");
            s.locks().forEach(l -> growing.add(r.locks().indexOf(l) + 1));
        }
        Optional<LayerWalk.Step> first = r.walk().firstBottleneck();
        if (first.isPresent()) {
            root.put("firstBottleneckLayer", first.get().layer().label());
        } else {
            root.putNull("firstBottleneckLayer");
        }
        strings(root, "notes", ctx.notes());
        return root;
    }

    private static void point(ObjectNode root, String name, Optional<SweepPoint> p) {
        if (p.isEmpty()) {
            root.putNull(name);
            return;
        }
        ObjectNode o = root.putObject(name);
        o.put("threads", p.get().threads());
        o.put("cpus", p.get().cpus());
        number(o, "throughput", p.get().throughput());
        number(o, "efficiency", p.get().efficiency());
    }

    private static void number(ObjectNode o, String name, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(name);
        } else {
            o.put(name, v);
        }
    }

    private static void path(ObjectNode o, String name, Path p) {
        if (p == null) {
            o.putNull(name);
        } else {
            o.put(name, p.toString());
        }
    }

    private static void strings(ObjectNode o, String name, List<String> values) {
        ArrayNode a = o.putArray(name);
        values.forEach(a::add);
    }
}
