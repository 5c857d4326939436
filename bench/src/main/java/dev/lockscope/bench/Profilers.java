package dev.lockscope.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * What the harnesses ({@link OverheadHarness}, {@link AccuracyHarness}) share: the JVM arguments of each
 * profiler configuration.
 */
final class Profilers {
    private Profilers() {
    }

    /**
     * The JVM arguments that run a workload under {@code config} ({@code none}, {@code lockscope}, {@code jfr},
     * {@code async-profiler}), recording to {@code jfr}. {@code root}: the repository (built jars);
     * {@code work}: a scratch directory for the extracted settings and library.
     */
    static List<String> args(Path root, Path work, String config, Path jfr) throws IOException {
        return switch (config) {
            case "none" -> List.of();
            case "lockscope" -> agent(root.resolve("agent/target/lockscope-agent.jar").toString(), jfr);
            case "jfr" -> List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=" + resource(work, "lock-events.jfc"));
            case "async-profiler" -> List.of("-agentpath:" + asyncProfilerLibrary(root, work) + "=start,event=lock,jfr,file=" + jfr);
            default -> throw new IllegalArgumentException(config);
        };
    }

    /**
     * lockscope's agent from {@code jarAndOptions}, {@code JAR} or {@code JAR@OPTIONS} (extra agent
     * options such as {@code threshold=10us}), recording to {@code jfr}.
     */
    static List<String> agent(String jarAndOptions, Path jfr) {
        String[] parts = jarAndOptions.split("@", 2);
        return List.of("-javaagent:" + parts[0] + "=file=" + jfr + ",report=off,quiet" + (parts.length > 1 ? "," + parts[1] : ""));
    }

    private static Path resource(Path work, String name) throws IOException {
        Path target = work.resolve(name);
        if (!Files.exists(target)) {
            try (InputStream in = Profilers.class.getResourceAsStream("/" + name)) {
                Files.copy(in, target);
            }
        }
        return target;
    }

    static Path asyncProfilerLibrary(Path root, Path work) throws IOException {
        Path lib = work.resolve("libasyncProfiler.so");
        if (!Files.exists(lib)) {
            try (ZipFile zip = new ZipFile(root.resolve("bench/target/async-profiler.jar").toFile())) {
                ZipEntry e = zip.getEntry("linux-x64/libasyncProfiler.so");
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return lib;
    }
}
