package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.core.OutputFiles;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.html.HtmlReport;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code record} and {@code demo} print once the profiled JVM has exited, and {@code dump --since} for its snapshot:
 * the recording's report as {@code lockscope report} prints it at its default {@code --top} (the findings first,
 * then the table, the details, the idle pools, what-if and owner blame), then the HTML report. The profiled JVM
 * prints no table of its own at exit (agent options {@code newFile}, {@code report=off}), so the first screen is the
 * findings, as {@code report}'s and {@code attach}'s. Everything goes to stderr: stdout belongs to the profiled program.
 */
final class AfterRun {
    /** Entries per section, as {@code report}'s default {@code --top}: the page and JSON have the rest. */
    private static final int SHOWN = 10;

    private AfterRun() {
    }

    /** @param fileMode the HTML report's (the recording's, {@code --file-mode}) */
    static void summarize(Path recording, ContentionOptions options, Path html, int fileMode) {
        try {
            if (!Files.isRegularFile(recording) || Files.size(recording) == 0) {
                return; // announce() said why
            }
        } catch (IOException e) {
            return;
        }
        try {
            // one pass feeds both the summary and the HTML page
            Report report = ReportBuilder.read(recording, options, Aspect.DEFAULT, false, html != null);
            report.warnings().forEach(w -> System.err.println("lockscope: warning: " + w));
            if (html != null) {
                OutputFiles.write(html, HtmlReport.render(report).getBytes(StandardCharsets.UTF_8), fileMode);
            }
            System.err.print(TextReport.render(report, html, SHOWN));
        } catch (RecordingException | IOException | RuntimeException e) {
            String full = ChildJvm.diskFull(recording);
            System.err.println("lockscope: no summary of the run: " + (full != null ? "the recording is incomplete, " + full : e.getMessage()));
        }
    }

    /** {@code run.jfr} → {@code run.html}. */
    static Path htmlBeside(Path recording) {
        return Path.of(recording.toString().replaceFirst("\\.jfr$", "") + ".html");
    }
}
