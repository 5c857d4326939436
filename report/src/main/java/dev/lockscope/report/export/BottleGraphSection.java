package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.bottle.BottleGraph;
import dev.lockscope.analysis.bottle.BottleGraphs;
import dev.lockscope.analysis.bottle.ThreadClassifier;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.report.bottle.BottleJson;
import dev.lockscope.report.bottle.BottleSvg;
import dev.lockscope.sched.SchedFile;
import dev.lockscope.sched.SchedTrace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The bottle graph (issue 5) in the report document, when the recording has scheduling data beside
 * it ({@code run.sched} next to {@code run.jfr}, written by {@code record --sched}): the
 * {@code bottleGraph} fragment with its SVG. Without it the member is left out and the page says how
 * to get one.
 */
public final class BottleGraphSection implements ReportSection {
    @Override
    public String member() {
        return "bottleGraph";
    }

    @Override
    public JsonNode build(RecordingInfo recording, LockContention contention) {
        if (recording.source() == null) {
            return null;
        }
        Path sched = SchedFile.besideRecording(recording.source());
        if (!Files.isRegularFile(sched)) {
            return null;
        }
        SchedTrace trace;
        try {
            trace = SchedFile.read(sched);
        } catch (IOException | RuntimeException e) {
            return null; // a damaged .sched must not cost the rest of the report
        }
        BottleGraph whole = BottleGraphs.whole(trace, ThreadClassifier.defaults());
        ObjectNode fragment = BottleJson.fragment(whole);
        fragment.put("svg", BottleSvg.render(List.of(whole), false));
        return fragment;
    }
}
