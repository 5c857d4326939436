package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.report.html.HtmlReport;
import dev.lockscope.report.model.ReportBuilder;
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
 * pages: the one {@code lockscope record --sched} writes for a demo run (the product as shipped,
 * bottle graph and profiles included), a synthetic recording of 100k contention records with a time
 * bound, an empty report whose sections must each say what is missing, and {@code lockscope diff}'s
 * page of the demo run with itself. Screenshots and the page sizes go to
 * e2e/target/html-report/.
 */
@InJdk25Pass
class HtmlReportBrowserIT {
    static final Path WEB = Path.of("..", "report", "web").toAbsolutePath().normalize();
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("LOCKSCOPE_CHROMIUM", "/usr/bin/chromium"));
    static final Path OUT = Path.of("target", "html-report").toAbsolutePath();
    static final int LARGE = 100_000;
    /** Generous: a laptop renders the 100k page in about a second; CI machines are shared. */
    static final int LARGE_BOUND_MILLIS = 30_000;

    @Test
    void reportsRenderInChromium() throws Exception {
        assumeBrowser();
        Files.createDirectories(OUT);

        Path jfr = OUT.resolve("demo.jfr");
        Proc record = Proc.lockscope(OUT, 180, "record", "--sched", "-o", jfr.toString(), "--",
                Proc.JAVA, "-jar", Proc.DEMO_JAR.toString(), "large-cs-juc", "--seconds", "3");
        assertThat(record.exitCode()).as(record.err()).isZero();
        Path demoHtml = OUT.resolve("demo.html");
        assertThat(record.err().strip().lines().reduce((a, b) -> b))
                .hasValue("lockscope: interactive report (open in a browser): " + demoHtml);

        Path emptyHtml = write("empty.html", new LockRecording(Path.of("empty.jfr"), 0, 0, java.util.Map.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of()));
        long began = System.nanoTime();
        Path largeHtml = write("large.html", SyntheticRecording.of(LARGE));
        long javaMillis = (System.nanoTime() - began) / 1_000_000;

        ObjectNode config = config(OUT);
        ArrayNode reports = config.withArray("reports");
        reports.addObject().put("file", demoHtml.toString()).put("name", "demo").put("expectLock", "ReentrantLock")
                .put("expectThread", "worker-").put("owners", true).put("bottleGraph", true).put("whatIf", true)
                .put("expectProfileFrame", "[parked on java.util.concurrent.locks.ReentrantLock");
        // lockscope diff's page, of the demo run with itself
        Path diffHtml = OUT.resolve("diff.html");
        Proc diff = Proc.lockscope(OUT, 120, "diff", jfr.toString(), jfr.toString(), "--wall", "--format", "html",
                "-o", diffHtml.toString());
        assertThat(diff.exitCode()).as(diff.err()).isZero();
        reports.addObject().put("file", diffHtml.toString()).put("name", "diff").put("diff", true)
                .put("expectFrame", "[parked on java.util.concurrent.locks.ReentrantLock");
        reports.addObject().put("file", largeHtml.toString()).put("name", "large-100k").put("expectLock", "ReentrantLock")
                // 1000 lock leaves of ~1 px each are below d3-flame-graph's minimum frame size
                .put("expectFrame", "com.example.service.Handler")
                .put("owners", true).put("bottleGraph", false) // no scheduling data beside a synthetic recording
                .put("boundMillis", LARGE_BOUND_MILLIS);
        reports.addObject().put("file", emptyHtml.toString()).put("name", "empty").put("empty", true);
        String output = runBrowser(config, OUT);
        String sizes = String.format(Locale.ROOT, "demo.html %d bytes, large.html (%d contention records) %d bytes, "
                + "made in %d ms%n", Files.size(demoHtml), LARGE, Files.size(largeHtml), javaMillis);
        Files.writeString(OUT.resolve("sizes.txt"), sizes + output);
        System.out.print(sizes + output);
        assertThat(output).contains("browser test: all passed");
    }

    /** Skips without node, Chromium or report/web/node_modules, except under CI, where that fails. */
    static void assumeBrowser() {
        boolean ready = onPath("node") != null && Files.isExecutable(CHROMIUM)
                && Files.isDirectory(WEB.resolve("node_modules/playwright-core"));
        String needs = "needs node, " + CHROMIUM + " and report/web/node_modules (scripts/install-deps.sh installs them)";
        // CI runs install-deps.sh first, so there a missing browser is a broken setup, not a reason to skip
        assertThat(ready || System.getenv("CI") == null).as("browser test under CI " + needs).isTrue();
        Assumptions.assumeTrue(ready, "browser test skipped: " + needs);
    }

    /** A driver configuration with no reports yet; screenshots go under {@code out}. */
    static ObjectNode config(Path out) {
        ObjectNode config = new ObjectMapper().createObjectNode().put("chromium", CHROMIUM.toString())
                .put("screenshots", out.resolve("screenshots").toString());
        config.putArray("reports");
        return config;
    }

    /** Runs report/web/browser-test.mjs on the configuration; its output, checks and failures listed. */
    static String runBrowser(ObjectNode config, Path out) throws IOException, InterruptedException {
        Path configFile = out.resolve("browser-test.json");
        new ObjectMapper().writeValue(configFile.toFile(), config);
        Process p = new ProcessBuilder(onPath("node"), "browser-test.mjs", configFile.toString()).directory(WEB.toFile())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }

    private static Path write(String name, LockRecording recording) throws IOException {
        Path file = OUT.resolve(name);
        Files.writeString(file, HtmlReport.render(ReportBuilder.read(recording::replay, ContentionOptions.DEFAULTS, Aspect.DEFAULT,
                false, true)), StandardCharsets.UTF_8);
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
