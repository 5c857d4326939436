package dev.lockscope.report.bottle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockscope.analysis.bottle.BottleGraph;
import dev.lockscope.analysis.bottle.BottleGraphs;
import dev.lockscope.analysis.bottle.ThreadClassifier;
import dev.lockscope.sched.SchedSource;
import dev.lockscope.sched.SchedTrace;
import dev.lockscope.sched.ThreadState;
import dev.lockscope.sched.Transition;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BottleRenderersTest {
    static final long MS = 1_000_000;

    /** V6 of the note in ms, with a name that needs escaping: app1 "a<b&c", app2, two GC threads, one JIT. */
    static SchedTrace trace(String approximate) {
        List<Transition> t = List.of(
                new Transition(0, 11, ThreadState.RUNNING), new Transition(0, 12, ThreadState.RUNNING),
                new Transition(400 * MS, 11, ThreadState.BLOCKED), new Transition(400 * MS, 12, ThreadState.BLOCKED),
                new Transition(400 * MS, 21, ThreadState.RUNNING), new Transition(400 * MS, 22, ThreadState.RUNNING),
                new Transition(450 * MS, 22, ThreadState.BLOCKED), new Transition(500 * MS, 21, ThreadState.BLOCKED),
                new Transition(500 * MS, 31, ThreadState.RUNNING), new Transition(510 * MS, 31, ThreadState.BLOCKED));
        return new SchedTrace(approximate == null ? SchedSource.PERF : SchedSource.SCHEDSTAT, approximate, 1, 2, 0,
                520 * MS, Map.of(11, "a<b&c\"", 12, "app2", 21, "GC Thread#0", 22, "GC Thread#1",
                31, "C2 CompilerThre"), t, List.of());
    }

    static BottleGraph graph(String approximate) {
        return BottleGraphs.whole(trace(approximate), ThreadClassifier.defaults());
    }

    @Test
    void svgIsWellFormedXml_withOneBoxPerThread_andGcJitColouredApart() throws Exception {
        BottleGraph g = graph(null);
        String svg = BottleSvg.render(List.of(g), false);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        NodeList rects = doc.getElementsByTagName("rect");
        assertThat(rects.getLength()).isEqualTo(1 + g.threads().size()); // background + boxes
        String gcFill = null;
        String jitFill = null;
        String appFill = null;
        for (int i = 1; i < rects.getLength(); i++) {
            Element r = (Element) rects.item(i);
            String title = r.getElementsByTagName("title").item(0).getTextContent();
            if (title.startsWith("GC Thread#0")) {
                gcFill = r.getAttribute("fill");
            } else if (title.startsWith("C2")) {
                jitFill = r.getAttribute("fill");
            } else if (title.startsWith("a<b&c")) {
                appFill = r.getAttribute("fill");
            }
        }
        assertThat(List.of(gcFill, jitFill, appFill)).doesNotHaveDuplicates().doesNotContainNull();
    }

    @Test
    void svgOfSlicesAndGroupsIsWellFormed() throws Exception {
        List<BottleGraph> slices = BottleGraphs.slices(trace("sampled"), ThreadClassifier.defaults(), 200 * MS);
        assertThat(slices).hasSize(3);
        for (boolean groups : new boolean[] {false, true}) {
            String svg = BottleSvg.render(slices, groups);
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
            assertThat(doc.getElementsByTagName("g").getLength()).isEqualTo(3);
        }
    }

    @Test
    void jsonHasThreadsWithTheContractFields() throws Exception {
        BottleGraph g = graph(null);
        JsonNode root = new ObjectMapper().readTree(BottleJson.render(g, List.of(g)));
        JsonNode threads = root.path("bottleGraph").path("threads");
        assertThat(threads.size()).isEqualTo(5);
        JsonNode app = threads.get(0); // widest first: the app threads (P = 2)
        assertThat(app.path("parallelism").asDouble()).isEqualTo(2.0);
        assertThat(app.path("shareNanos").asLong()).isEqualTo(200 * MS);
        assertThat(app.path("runningNanos").asLong()).isEqualTo(400 * MS);
        for (JsonNode t : threads) {
            assertThat(t.has("name") && t.has("osTid") && t.has("group")).isTrue();
        }
        JsonNode gc = null;
        for (JsonNode x : root.path("bottleGraph").path("groups")) {
            if (x.path("name").asText().equals("GC")) {
                gc = x;
            }
        }
        assertThat(gc).isNotNull();
        assertThat(gc.path("parallelism").asDouble()).isEqualTo(1.5);
        assertThat(root.path("bottleGraph").path("approximate").isNull()).isTrue();
        assertThat(root.path("bottleGraph").has("slices")).isFalse();
    }

    @Test
    void textSaysApproximateAndListsTopOfBottleFirst() {
        String text = BottleTextReport.render(List.of(graph("sampled /proc every 5 ms")), false);
        assertThat(text).contains("APPROXIMATE: sampled /proc every 5 ms");
        int jit = text.indexOf("C2 CompilerThre");
        int app = text.indexOf("app2");
        assertThat(jit).isPositive().isLessThan(app); // P = 1 above P = 2
    }

    @Test
    void warnsWhenRunnableThreadsExceedCpus() {
        List<Transition> t = List.of(
                new Transition(0, 1, ThreadState.RUNNING), new Transition(0, 2, ThreadState.RUNNING),
                new Transition(0, 3, ThreadState.RUNNABLE),
                new Transition(100 * MS, 1, ThreadState.BLOCKED), new Transition(100 * MS, 2, ThreadState.BLOCKED),
                new Transition(100 * MS, 3, ThreadState.BLOCKED));
        SchedTrace tr = new SchedTrace(SchedSource.PERF, null, 9, 2, 0, 100 * MS, Map.of(1, "a", 2, "b", 3, "c"),
                t, List.of());
        BottleGraph g = BottleGraphs.whole(tr, ThreadClassifier.defaults());
        assertThat(g.machineBoundWarning()).contains("3 threads were runnable on 2 CPUs");
        assertThat(BottleTextReport.render(g, false)).contains("WARNING: up to 3 threads");
    }

    @Test
    void aBoxOfVirtualThreadsSaysHowManyInsteadOfAnOsThread() throws Exception {
        // app2 (tid 12) is a carrier that ran two virtual threads of one pool for its first 300 ms
        BottleGraph g = BottleGraphs.whole(trace(null), ThreadClassifier.defaults(), new dev.lockscope.analysis.bottle.VirtualThreadMounts(
                List.of(new dev.lockscope.analysis.bottle.VirtualThreadMounts.Mount(12, -1, 0, 100 * MS),
                        new dev.lockscope.analysis.bottle.VirtualThreadMounts.Mount(12, -2, 100 * MS, 300 * MS)),
                Map.of(-1, "virtual: app.Handler.run", -2, "virtual: app.Handler.run"), 0));
        JsonNode threads = new ObjectMapper().readTree(BottleJson.render(g, List.of(g), List.of())).get("bottleGraph").get("threads");
        JsonNode virtual = null;
        for (JsonNode t : threads) {
            if (t.get("name").asText().equals("virtual: app.Handler.run")) {
                virtual = t;
            }
        }
        assertThat(virtual).isNotNull();
        assertThat(virtual.get("osTid").isNull()).isTrue();
        assertThat(virtual.get("virtualThreads").asInt()).isEqualTo(2);
        assertThat(virtual.get("runningNanos").asLong()).isEqualTo(300 * MS);
        assertThat(BottleTextReport.render(List.of(g), false)).containsPattern("virtual: app\\.Handler\\.run\\s+2 vt\\s");
    }
}
