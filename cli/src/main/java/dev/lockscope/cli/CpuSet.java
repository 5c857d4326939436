package dev.lockscope.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The CPUs this process may run on (Linux {@code Cpus_allowed_list}, else 0..availableProcessors−1),
 * and how to confine a child to the first N of them: {@code taskset -c} for the OS, plus
 * {@code -XX:ActiveProcessorCount=N} so the JVM sizes its GC, JIT and common pool for N.
 */
record CpuSet(List<Integer> allowed) {
    CpuSet {
        allowed = List.copyOf(allowed);
    }

    static CpuSet ofThisProcess() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    List<Integer> cpus = parseList(line.substring(line.indexOf(':') + 1).trim());
                    if (!cpus.isEmpty()) {
                        return new CpuSet(cpus);
                    }
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            // fall through
        }
        return new CpuSet(IntStream.range(0, Runtime.getRuntime().availableProcessors()).boxed().toList());
    }

    /** {@code 0-3,8,10-11} → [0, 1, 2, 3, 8, 10, 11]. */
    static List<Integer> parseList(String list) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1));
            for (int c = from; c <= to; c++) {
                out.add(c);
            }
        }
        return out;
    }

    int count() {
        return allowed.size();
    }

    /** The {@code taskset -c} list for the first {@code n} allowed CPUs (all of them when there are fewer). */
    String tasksetList(int n) {
        return allowed.subList(0, Math.min(n, allowed.size())).stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
