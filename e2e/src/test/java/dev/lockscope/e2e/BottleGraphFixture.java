package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.report.export.ReportSection;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * TEST FIXTURE, not product code: a {@code bottleGraph} member in the bottle-graph contract
 * (issue 5) with made-up but well-formed numbers: a thread runs whenever it does not wait on a
 * lock, parallelism is the average number of running threads, share = running / parallelism.
 */
final class BottleGraphFixture implements ReportSection {
    @Override
    public String member() {
        return "bottleGraph";
    }

    private final Map<String, long[]> waiting = new LinkedHashMap<>(); // name -> {waiting nanos, os tid}
    private final Map<List<Long>, ParkWait> open = new LinkedHashMap<>();

    @Override
    public RecordingVisitor visitor() {
        return new RecordingVisitor() {
            @Override
            public void parkBegin(ParkWait p) {
                open.put(List.of(p.thread().javaTid(), p.beginSeq()), p);
            }

            @Override
            public void parkEnd(ParkWait p) {
                open.remove(List.of(p.thread().javaTid(), p.beginSeq()));
                add(p.thread(), p.endNanos() - p.beginNanos());
            }

            @Override
            public void monitorEnter(MonitorEnter e) {
                add(e.thread(), e.endNanos() - e.beginNanos());
            }

            @Override
            public void finish(RecordingInfo info) {
                open.values().forEach(p -> add(p.thread(), p.durationNanos(info.endNanos())));
            }
        };
    }

    private void add(ThreadRef t, long nanos) {
        waiting.computeIfAbsent(t.name(), k -> new long[] {0, t.osTid()})[0] += nanos;
    }

    @Override
    public JsonNode build(RecordingInfo recording, LockContention contention) {
        long duration = recording.durationNanos();
        long running = 0;
        for (long[] w : waiting.values()) {
            running += Math.max(0, duration - w[0]);
        }
        double parallelism = Math.max(1.0, (double) running / Math.max(1, duration));
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode threads = root.putArray("threads");
        waiting.forEach((name, w) -> {
            long run = Math.max(0, duration - w[0]);
            threads.addObject().put("name", name).put("osTid", w[1]).put("group", name.replaceAll("-?\\d+$", ""))
                    .put("shareNanos", (long) (run / parallelism)).put("parallelism", parallelism).put("runningNanos", run);
        });
        return root;
    }
}
