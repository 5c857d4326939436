package dev.lockscope.analysis.model;

import dev.lockscope.analysis.jfr.JfrFile;
import dev.lockscope.analysis.jfr.JfrType;
import dev.lockscope.core.EventNames;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the data of an empty recording are: a JVM killed before it wrote its recording (kill -9)
 * leaves the destination as the agent claimed it, 0 bytes, and its chunks in JFR's repository,
 * {@code <java.io.tmpdir>/<yyyy_MM_dd_HH_mm_ss>_<pid>/}. The agent enables {@code jdk.ActiveRecording},
 * which JFR writes at the start of every chunk with each recording's destination, so the chunk
 * that names the empty file is found by reading the repositories in the temp directory, not
 * guessed from times. A JVM that was given another {@code java.io.tmpdir} or
 * {@code -XX:FlightRecorderOptions:repository} is not found; the message then says where to look.
 */
final class KilledRecording {
    private static final Pattern REPOSITORY = Pattern.compile("\\d{4}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_\\d{2}_(\\d+)");
    /** Repositories looked into, newest first: a temp directory can hold many runs' leftovers. */
    private static final int MAX_REPOSITORIES = 16;

    private KilledRecording() {
    }

    /** The one line for the empty {@code destination}: whose repository holds its data and how to read it. */
    static String emptyRecording(Path destination, Path tmp) {
        Path repository = repositoryOf(destination, tmp);
        if (repository == null) {
            return "recording is empty (0 bytes): if its JVM was killed, JFR's repository " + tmp
                    + "/<date>_<pid>/ holds what it recorded: " + destination;
        }
        long pid = pid(repository);
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return "recording is empty (0 bytes): pid " + pid + " is still recording into it (its chunks so far are in "
                    + repository + "): " + destination;
        }
        List<Path> chunks = chunks(repository);
        String read = chunks.size() == 1 ? "lockscope report " + chunks.get(0)
                : "cat " + repository + "/*.jfr > salvaged.jfr && lockscope report salvaged.jfr";
        return "recording is empty (0 bytes): its JVM (pid " + pid + ") ended before writing it (killed?); JFR's repository "
                + repository + " holds what it recorded: " + read + " (for " + destination + ")";
    }

    /** The repository in {@code tmp} whose chunks name {@code destination} as their recording's, or null. */
    static Path repositoryOf(Path destination, Path tmp) {
        Set<String> wanted = new HashSet<>(); // JFR writes the real path
        wanted.add(destination.toAbsolutePath().normalize().toString());
        try {
            wanted.add(destination.toRealPath().toString());
        } catch (IOException | RuntimeException e) {
            // gone meanwhile: the path as given
        }
        List<Path> repositories = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmp)) {
            for (Path entry : entries) {
                if (REPOSITORY.matcher(entry.getFileName().toString()).matches() && Files.isDirectory(entry)) {
                    repositories.add(entry);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        repositories.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        for (Path repository : repositories.subList(0, Math.min(MAX_REPOSITORIES, repositories.size()))) {
            for (Path chunk : chunks(repository)) {
                if (names(chunk, wanted)) {
                    return repository;
                }
                break; // every chunk of a recording names it: the first decides
            }
        }
        return null;
    }

    /** The repository's chunk files, oldest first (JFR names them by their start time). */
    private static List<Path> chunks(Path repository) {
        List<Path> chunks = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(repository, "*.jfr")) {
            files.forEach(chunks::add);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        chunks.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return chunks;
    }

    /** Whether a {@code jdk.ActiveRecording} event of {@code chunkFile} has one of the {@code destination} paths. */
    private static boolean names(Path chunkFile, Set<String> destination) {
        boolean[] found = {false};
        try {
            JfrFile.read(chunkFile, chunk -> {
                JfrType active = chunk.type(EventNames.ACTIVE_RECORDING);
                int field = active == null ? -1 : active.field("destination");
                if (field >= 0 && !found[0]) {
                    chunk.events((type, values, strings) -> found[0] |= type == active && destination.contains(strings[field]));
                }
            });
        } catch (IOException | RuntimeException e) {
            return false; // a chunk the JVM removed, or one that cannot be read: not this recording's
        }
        return found[0];
    }

    private static long pid(Path repository) {
        Matcher m = REPOSITORY.matcher(repository.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }
}
