package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.report.TextReport;
import dev.lockscope.report.blame.BlameTextReport;
import dev.lockscope.report.export.OutputFormat;
import dev.lockscope.report.export.OwnerBlameSection;
import dev.lockscope.report.export.ReportDocument;
import dev.lockscope.report.export.Side;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code record} and {@code demo} print once the profiled JVM has exited (its own table is
 * already on stderr): the top findings and who held the locks (owner blame), then the HTML report.
 * Everything goes to stderr: stdout belongs to the profiled program.
 */
final class AfterRun {
    private AfterRun() {
    }

    static void summarize(Path recording, ContentionOptions options, Path html) {
        if (!Files.isRegularFile(recording)) {
            return;
        }
        try {
            LockRecording model = RecordingReader.read(recording);
            LockContention contention = LockContentionAnalysis.analyze(model, options);
            OwnerBlameSection blame = new OwnerBlameSection(Aspect.DEFAULT, false);
            List<String> findings = ReportDocument.findings(ReportDocument.build(model, contention, List.of(blame)));
            StringBuilder out = new StringBuilder(System.lineSeparator());
            if (!findings.isEmpty()) {
                out.append("top findings:").append(System.lineSeparator());
                findings.forEach(f -> out.append("  - ").append(f).append(System.lineSeparator()));
                out.append(System.lineSeparator());
            }
            out.append(BlameTextReport.render(blame.summary(model)));
            System.err.print(out);
            if (html != null) {
                Files.write(html, OutputFormat.html.render(model, contention, Side.waiter));
                System.err.println(TextReport.htmlPointer(html));
            }
        } catch (RecordingException | IOException | RuntimeException e) {
            System.err.println("lockscope: no summary of the run: " + e.getMessage());
        }
    }

    /** {@code run.jfr} → {@code run.html}. */
    static Path htmlBeside(Path recording) {
        return Path.of(recording.toString().replaceFirst("\\.jfr$", "") + ".html");
    }
}
