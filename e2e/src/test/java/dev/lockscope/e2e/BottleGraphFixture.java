package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.report.export.ReportSection;

import java.util.LinkedHashMap;
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

    @Override
    public JsonNode build(LockRecording recording, LockContention contention) {
        long duration = recording.durationNanos();
        Map<String, long[]> waiting = new LinkedHashMap<>(); // name -> {waiting nanos, os tid}
        for (ParkWait p : recording.parks()) {
            waiting.computeIfAbsent(p.thread().name(), k -> new long[] {0, p.thread().osTid()})[0] += p.durationNanos(recording.endNanos());
        }
        for (MonitorEnter e : recording.monitorEnters()) {
            waiting.computeIfAbsent(e.thread().name(), k -> new long[] {0, e.thread().osTid()})[0] += e.endNanos() - e.beginNanos();
        }
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
