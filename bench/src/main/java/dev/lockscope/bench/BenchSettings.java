package dev.lockscope.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every section of the performance report runs with.
 *
 * @param root     the lockscope checkout whose built jars are measured
 * @param java     the JVM that runs the workloads
 * @param repeats  repetitions of every measurement
 * @param smoke    one short repetition of everything: proves the harness works (what CI runs)
 * @param work     scratch directory
 * @param failures runs that produced no number; counted so a smoke run can fail
 * @param workloads overhead and accuracy workloads to run; empty: all
 * @param configs   overhead configurations to run besides {@code none}; empty: all
 * @param agents    {@code --agent NAME=JAR[@OPTIONS]}: more overhead configurations, each an agent jar
 *                  (say, main's and a change's) with its extra options, measured side by side with
 *                  the others in the same interleaved run; in insertion order
 * @param soakDuration how long the soak section runs the workload
 * @param soakJvmOptions the soak's heap options (the soak section's default when empty)
 * @param baselineCli analysis-speed section: another build's {@code lockscope.jar} timed beside this one; null: none
 * @param recordingSizesMb analysis-speed section: sizes of the recordings analysed; empty: 10, 100 and 1024 MB
 */
record BenchSettings(Path root, String java, int repeats, boolean smoke, Path work, AtomicInteger failures,
                     Set<String> workloads, Set<String> configs, Map<String, String> agents, java.time.Duration soakDuration,
                     Path baselineCli, List<Long> recordingSizesMb, List<String> soakJvmOptions) {
    boolean keep(Set<String> only, String name) {
        return only.isEmpty() || only.contains(name);
    }
}
