package dev.lockscope.report.scale;

import java.nio.file.Path;
import java.util.List;

/**
 * What the renderers say about a sweep besides its results.
 *
 * @param outputDir where the recordings lie: the HTML page links them relative to it
 * @param command   the swept command, with its {threads} placeholder
 * @param notes     things the user should know (fewer CPUs than asked, interrupted), one line each
 */
public record SweepContext(Path outputDir, List<String> command, List<String> notes) {
    public SweepContext {
        command = List.copyOf(command);
        notes = List.copyOf(notes);
    }
}
