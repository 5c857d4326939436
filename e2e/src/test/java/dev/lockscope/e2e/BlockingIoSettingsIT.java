package dev.lockscope.e2e;

import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What blocking I/O a recording enables, read from its {@code jdk.ActiveSetting} events: socket I/O always, file
 * I/O only with {@code record --file-io} (once enabled, JFR reads the clock in every file read and write of the
 * application; docs/agent-cost.md "log4j2 part by part").
 */
class BlockingIoSettingsIT {
    @TempDir
    Path dir;

    /** The last value of each event type's "enabled" setting in the recording, by event name. */
    private static Map<String, String> enabled(Path jfr) throws Exception {
        Map<Long, String> names = new HashMap<>();
        Map<String, String> out = new HashMap<>();
        try (RecordingFile f = new RecordingFile(jfr)) {
            for (EventType t : f.readEventTypes()) {
                names.put(t.getId(), t.getName());
            }
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                if (e.getEventType().getName().equals("jdk.ActiveSetting") && e.getString("name").equals("enabled")) {
                    out.put(names.get(e.getLong("id")), e.getString("value"));
                }
            }
        }
        return out;
    }

    private Map<String, String> recorded(String name, String... options) throws Exception {
        Path jfr = dir.resolve(name + ".jfr");
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("record", "--no-html", "-o", jfr.toString()));
        args.addAll(java.util.List.of(options));
        args.addAll(java.util.List.of("--", Proc.JAVA, "-cp", Proc.TEST_CLASSES, NoJvmWarningIT.Hello.class.getName()));
        Proc p = Proc.lockscope(dir, 120, args.toArray(String[]::new));
        assertThat(p.exitCode()).as(p.err()).isZero();
        return enabled(jfr);
    }

    @Test
    void fileIoOnlyWithFileIoSocketIoAlways() throws Exception {
        Map<String, String> defaults = recorded("defaults");
        assertThat(defaults).containsEntry("jdk.SocketRead", "true").containsEntry("jdk.SocketWrite", "true");
        assertThat(defaults.getOrDefault("jdk.FileWrite", "false")).isEqualTo("false");
        assertThat(defaults.getOrDefault("jdk.FileRead", "false")).isEqualTo("false");

        Map<String, String> fileIo = recorded("file-io", "--file-io");
        assertThat(fileIo).containsEntry("jdk.FileRead", "true").containsEntry("jdk.FileWrite", "true")
                .containsEntry("jdk.SocketRead", "true");
    }
}
