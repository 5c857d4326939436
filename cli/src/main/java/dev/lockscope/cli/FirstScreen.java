package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.report.TextReport;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;

import java.nio.file.Path;

/**
 * What {@code lockscope report} opens with, for the recording {@code attach --duration} or {@code --stop} has just
 * stopped: the line that says nothing is significantly contended (when so) and the findings, which the agent's table
 * then follows, so the first screen of {@code attach} is that of {@code report}. The findings need the whole
 * recording read, as {@code report} reads it (seconds on a large one; progress on a terminal).
 */
final class FirstScreen {
    /** The findings shown, as {@code report}'s default {@code --top}. */
    static final int TOP = 10;

    private FirstScreen() {
    }

    /**
     * The first line and the findings with an empty line after them; empty, with a line on stderr saying why, when the
     * recording cannot be read (the table is printed all the same: the session has stopped, its table must not be lost).
     */
    static String findings(Path recording) {
        if (recording == null) {
            return "";
        }
        try {
            Report report = ReportBuilder.read(recording, ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, false);
            return TextReport.firstLine(report) + TextReport.findings(report, TOP).substring(1) + "\n";
        } catch (RecordingException | RuntimeException e) {
            System.err.println("lockscope: no findings (" + e.getMessage() + "); the table follows, and `lockscope report "
                    + recording + "` reads the recording again");
            return "";
        }
    }
}
