package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12's acceptance: one recording of a demo workload, rendered by {@code lockscope report} in
 * every format (text, JSON, HTML, collapsed and pprof on both sides) and by {@code lockscope blame},
 * shows the same total wait, the same blame trees for several orders of aspects (the HTML page's
 * own trees read from the page rendered in Chromium) and the same top finding.
 */
@InJdk17Pass
class ReportFormatsAgreeIT {
    static final Path OUT = Path.of("target", "report-formats").toAbsolutePath();
    static final Path JFR = OUT.resolve("article.jfr");
    /** Orders of aspects, each aspect at least once, chain keys and chain classes included. */
    static final List<String> ORDERS = List.of("lock,owner-method", "owner-method,lock-class,waiter-method",
            "chain-class,waiter-thread", "waiter-chain,owner-chain", "kind,owner-thread,chain-class,lock");
    static final ObjectMapper MAPPER = new ObjectMapper();

    static JsonNode json;
    static long total;

    /** Hofer's demo with synchronized: contended monitors, owners by acquisition site, some unknown. */
    @BeforeAll
    static void record() throws Exception {
        Files.createDirectories(OUT);
        Proc record = Proc.lockscope(OUT, 180, "record", "--no-html", "-o", JFR.toString(), "--",
                Proc.JAVA, "-jar", Proc.DEMO_JAR.toString(), "blame-article-sync", "--seconds", "2");
        assertThat(record.exitCode()).as(record.err()).isZero();
        json = MAPPER.readTree(report("--format", "json"));
        for (JsonNode lock : json.get("locks")) {
            // owner blame covers every lock but the idle ones and the profiler's own threads' (ReportBuilder)
            if (!lock.get("waitClass").asText().equals("idle") && !lock.get("waitRule").asText().equals("lockscope-own")) {
                total += lock.get("totalWaitNanos").asLong();
            }
        }
        assertThat(total).as("the demo contends").isPositive();
    }

    @Test
    void everyFormatCarriesTheSameTotalWait() throws Exception {
        assertThat(json.at("/tree/nanos").asLong()).isEqualTo(total);
        long blame = 0;
        for (JsonNode row : json.get("blame")) {
            blame += row.get("nanos").asLong();
        }
        assertThat(blame).isEqualTo(total);
        assertThat(report()).contains(String.format(Locale.ROOT, "Owner blame: %.1f ms of contention", total / 1e6));
        for (String side : List.of("waiter", "owner")) {
            long collapsed = report("--format", "collapsed", "--side", side).lines()
                    .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
            assertThat(collapsed).as("collapsed, " + side).isEqualTo(total);
            Path pprof = OUT.resolve(side + ".pb.gz");
            report("--format", "pprof", "--side", side, "-o", pprof.toString());
            assertThat(pprofWait(Files.readAllBytes(pprof))).as("pprof, " + side).isEqualTo(total);
        }
    }

    @Test
    void textJsonBlameAndThePageShowTheSameTreesAndTopFinding() throws Exception {
        HtmlReportBrowserIT.assumeBrowser();
        Path html = OUT.resolve("article.html");
        report("--format", "html", "-o", html.toString());
        Path dump = OUT.resolve("page-trees.json");
        ObjectNode config = HtmlReportBrowserIT.config(OUT);
        ObjectNode page = ((ArrayNode) config.get("reports")).addObject().put("file", html.toString()).put("name", "formats")
                .put("expectLock", "Object").put("owners", true).put("bottleGraph", false).put("dump", dump.toString());
        ArrayNode trees = page.putArray("trees");
        ORDERS.forEach(o -> {
            ArrayNode order = trees.addArray();
            List.of(o.split(",")).forEach(order::add);
        });
        HtmlReportBrowserIT.runBrowser(config, OUT);
        JsonNode shown = MAPPER.readTree(dump.toFile());

        // the page opens on the tree the CLI prints by default
        assertThat(shown.get("groupBy")).isEqualTo(MAPPER.valueToTree(List.of("lock", "owner-method")));
        assertThat(shown.get("initial")).isEqualTo(comparable(json.get("tree")));
        for (int i = 0; i < ORDERS.size(); i++) {
            String order = ORDERS.get(i);
            JsonNode tree = MAPPER.readTree(report("--format", "json", "--group-by", order)).get("tree");
            assertThat(tree.get("nanos").asLong()).isEqualTo(total);
            assertThat(shown.get("trees").get(i)).as("page tree by " + order).isEqualTo(comparable(tree));
            List<JsonNode> top = new ArrayList<>();
            comparable(tree).get("children").forEach(c -> top.add(((ObjectNode) c.deepCopy()).without("children")));
            assertThat(shown.get("topLevel").get(i)).as("explorer's top level by " + order)
                    .containsExactlyElementsOf(top.subList(0, Math.min(50, top.size())));
            assertThat(textTree(report("--group-by", order))).as("text tree by " + order).isEqualTo(textTree(tree));
            if (i % 2 == 0) {
                assertThat(MAPPER.readTree(lockscope("blame", JFR.toString(), "--group-by", order, "--format", "json"))
                        .get("tree")).as("blame tree by " + order).isEqualTo(tree);
            }
        }

        String top = json.get("findings").get(0).asText();
        assertThat(json.at("/rules/0/message").asText()).isEqualTo(top);
        assertThat(shown.get("findings").get(0).asText()).isEqualTo(top.replace("`", ""));
        assertThat(firstTextFinding(report())).isEqualTo(top.replace("`", ""));
    }

    /** A JSON tree node as the page's {@code treeFor} gives it: key, nanos, count, children (numbers as parsed). */
    private static JsonNode comparable(JsonNode node) {
        try {
            return MAPPER.readTree(MAPPER.writeValueAsString(shape(node)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode shape(JsonNode node) {
        ObjectNode o = MAPPER.createObjectNode().put("key", node.get("key").asText()).put("nanos", node.get("nanos").asLong())
                .put("count", node.get("count").asLong());
        ArrayNode children = o.putArray("children");
        node.get("children").forEach(c -> children.add(shape(c)));
        return o;
    }

    /** The text tree's lines as "depth time count", in order (keys are abbreviated in text). */
    private static List<String> textTree(String text) {
        List<String> out = new ArrayList<>();
        int end = text.indexOf("\nOwner chains per lock");
        Matcher m = Pattern.compile("(?m)^\\s*[\\d.]+%\\s+([\\d.]+ ms)\\s+(\\d+)  ( *)\\S.*$")
                .matcher(text.substring(text.indexOf("Owner blame:"), end < 0 ? text.length() : end));
        while (m.find()) {
            out.add(m.group(3).length() / 2 + " " + m.group(1) + " " + m.group(2));
        }
        return out;
    }

    /** The JSON tree as the text shows it: below the first level, groups under 1% of all after the first are left out. */
    private static List<String> textTree(JsonNode tree) {
        List<String> out = new ArrayList<>();
        preorder(tree.get("children"), 0, tree.get("nanos").asLong(), out);
        return out;
    }

    private static void preorder(JsonNode children, int depth, long all, List<String> out) {
        int shown = 0;
        for (JsonNode n : children) {
            if (shown > 0 && depth > 0 && n.get("nanos").asLong() < 0.01 * all) {
                break;
            }
            out.add(depth + " " + String.format(Locale.ROOT, "%.1f ms", n.get("nanos").asLong() / 1e6) + " " + n.get("count").asLong());
            preorder(n.get("children"), depth + 1, all, out);
            shown++;
        }
    }

    /** The first item under "top findings:", its wrapped lines joined. */
    private static String firstTextFinding(String text) {
        List<String> lines = text.substring(text.indexOf("top findings:\n") + "top findings:\n".length()).lines().toList();
        StringBuilder finding = new StringBuilder(lines.get(0).substring(4));
        for (int i = 1; i < lines.size() && lines.get(i).startsWith("    "); i++) {
            finding.append(' ').append(lines.get(i).strip());
        }
        return finding.toString();
    }

    private static String report(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("report", JFR.toString()));
        args.addAll(List.of(options));
        return lockscope(args.toArray(String[]::new));
    }

    private static String lockscope(String... args) throws Exception {
        Proc p = Proc.lockscope(OUT, 120, args);
        assertThat(p.exitCode()).as(p.err()).isZero();
        return p.out();
    }

    /** Sum of the first sample value (wait nanoseconds) of a gzipped profile.proto. */
    private static long pprofWait(byte[] gzipped) throws IOException {
        byte[] raw;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            raw = in.readAllBytes();
        }
        long sum = 0;
        for (ByteString sample : UnknownFieldSet.parseFrom(raw).getField(2).getLengthDelimitedList()) {
            ByteString values = UnknownFieldSet.parseFrom(sample).getField(2).getLengthDelimitedList().get(0);
            sum += values.newCodedInput().readInt64();
        }
        return sum;
    }
}
