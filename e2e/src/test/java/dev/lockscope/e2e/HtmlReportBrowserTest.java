package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.report.export.ReportDocument;
import dev.lockscope.report.export.ReportSection;
import dev.lockscope.report.html.HtmlReport;
import dev.lockscope.report.export.ThreadTimeline;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTML report in a real browser: headless Chromium (Debian's package) driven by
 * report/web/browser-test.mjs (playwright-core), both installed by scripts/install-deps.sh. Four
 * pages: the one {@code lockscope record} writes for a demo run (the product as shipped: waiter-side
 * blame, no bottle graph), the same recording with the owner-blame and bottle-graph test fixtures,
 * a synthetic recording of 100k contention records with a time bound, and an empty report whose
 * sections must each say what is missing. Screenshots and the page
 * sizes go to e2e/target/html-report/.
 */
class HtmlReportBrowserTest {
    static final Path WEB = Path.of("..", "report", "web").toAbsolutePath().normalize();
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("LOCKSCOPE_CHROMIUM", "/usr/bin/chromium"));
    static final Path OUT = Path.of("target", "html-report").toAbsolutePath();
    static final int LARGE = 100_000;
    /** Generous: a laptop renders the 100k page in about a second; CI machines are shared. */
    static final int LARGE_BOUND_MILLIS = 30_000;

    @Test
    void reportsRenderInChromium() throws Exception {
        String node = onPath("node");
        boolean ready = node != null && Files.isExecutable(CHROMIUM)
                && Files.isDirectory(WEB.resolve("node_modules/playwright-core"));
        String needs = "needs node, " + CHROMIUM + " and report/web/node_modules (scripts/install-deps.sh installs them)";
        // CI runs install-deps.sh first, so there a missing browser is a broken setup, not a reason to skip
        assertThat(ready || System.getenv("CI") == null).as("browser test under CI " + needs).isTrue();
        Assumptions.assumeTrue(ready, "browser test skipped: " + needs);
        Files.createDirectories(OUT);

        Path jfr = OUT.resolve("demo.jfr");
        Proc record = Proc.lockscope(OUT, 180, "record", "-o", jfr.toString(), "--",
                Proc.JAVA, "-jar", Proc.DEMO_JAR.toString(), "large-cs-juc", "--seconds", "3");
        assertThat(record.exitCode()).as(record.err()).isZero();
        Path demoHtml = OUT.resolve("demo.html");
        assertThat(record.err().strip().lines().reduce((a, b) -> b))
                .hasValue("lockscope: interactive report (open in a browser): " + demoHtml);

        LockRecording model = LockRecording.collect(jfr);
        Path fixtureHtml = write("demo-fixtures.html", model, List.<ReportSection>of(new OwnerBlameFixture(), new BottleGraphFixture(),
                new ThreadTimeline()));
        Path emptyHtml = write("empty.html", new LockRecording(Path.of("empty.jfr"), 0, 0, java.util.Map.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of()), List.of());
        long began = System.nanoTime();
        Path largeHtml = write("large.html", SyntheticRecording.of(LARGE), List.of(new OwnerBlameFixture(),
                new BottleGraphFixture(), new ThreadTimeline()));
        long javaMillis = (System.nanoTime() - began) / 1_000_000;

        ObjectMapper json = new ObjectMapper();
        ObjectNode config = json.createObjectNode().put("chromium", CHROMIUM.toString())
                .put("screenshots", OUT.resolve("screenshots").toString());
        ArrayNode reports = config.putArray("reports");
        reports.addObject().put("file", demoHtml.toString()).put("name", "demo").put("expectLock", "ReentrantLock")
                .put("owners", true).put("bottleGraph", false); // record runs the owner-blame analysis
        reports.addObject().put("file", fixtureHtml.toString()).put("name", "demo-fixtures").put("expectLock", "ReentrantLock")
                .put("expectThread", "worker-").put("owners", true).put("bottleGraph", true);
        reports.addObject().put("file", largeHtml.toString()).put("name", "large-100k").put("expectLock", "Shard")
                // 1000 lock leaves of ~1 px each are below d3-flame-graph's minimum frame size
                .put("expectFrame", "com.example.service.Handler")
                .put("expectThread", "pool-1-thread-").put("owners", true).put("bottleGraph", true)
                .put("boundMillis", LARGE_BOUND_MILLIS);
        reports.addObject().put("file", emptyHtml.toString()).put("name", "empty").put("empty", true);
        Path configFile = OUT.resolve("browser-test.json");
        json.writeValue(configFile.toFile(), config);

        Process p = new ProcessBuilder(node, "browser-test.mjs", configFile.toString()).directory(WEB.toFile())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String sizes = String.format(Locale.ROOT, "demo.html %d bytes, demo-fixtures.html %d bytes, large.html (%d "
                        + "contention records) %d bytes, made in %d ms%n", Files.size(demoHtml), Files.size(fixtureHtml),
                LARGE, Files.size(largeHtml), javaMillis);
        Files.writeString(OUT.resolve("sizes.txt"), sizes + output);
        System.out.print(sizes + output);
        assertThat(p.exitValue()).as(output).isZero();
    }

    private static Path write(String name, LockRecording recording, List<ReportSection> sections) throws IOException {
        LockContentionAnalysis contention = new LockContentionAnalysis(ContentionOptions.DEFAULTS);
        RecordingInfo info = recording.replay(ReportDocument.visitors(contention, sections));
        ObjectNode doc = ReportDocument.build(new ReportDocument.Read(info, contention.result()), sections);
        Path file = OUT.resolve(name);
        Files.writeString(file, HtmlReport.render(doc), StandardCharsets.UTF_8);
        return file;
    }

    private static String onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
