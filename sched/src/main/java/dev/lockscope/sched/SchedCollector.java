package dev.lockscope.sched;

import java.nio.file.Path;

/**
 * Collects scheduling data of one process from {@link #start} until {@link #stop}, which writes the
 * .sched file and returns what it wrote. Use {@link #start(long, Path)}: it prefers perf and falls
 * back to the /proc sampler, with the reason recorded in the trace.
 */
public interface SchedCollector extends AutoCloseable {
    /** System property that forces a source: {@code perf} or {@code schedstat}. */
    String SOURCE_PROPERTY = "lockscope.sched.source";

    SchedSource source();

    /** Stops collecting, writes the output file and returns its content. Idempotent. */
    SchedTrace stop();

    /**
     * CPU time the collector itself used while collecting (perf process, or the sampler thread),
     * measured at {@link #stop}; -1 before stop or if unknown. Excludes converting perf data.
     */
    default long collectorCpuNanos() {
        return -1;
    }

    /** Stops without caring for the result (for try-with-resources). */
    @Override
    default void close() {
        stop();
    }

    /** Starts the best available collector for {@code pid}, writing to {@code output} on stop. */
    static SchedCollector start(long pid, Path output) {
        return start(pid, output, System.getProperty(SOURCE_PROPERTY, ""));
    }

    /** {@code source}: "" or "auto" (perf, else /proc), "perf" (fails without perf), "schedstat" (forced fallback). */
    static SchedCollector start(long pid, Path output, String source) {
        switch (source) {
            case "schedstat":
                return SchedstatSampler.start(pid, output, SchedstatSampler.DEFAULT_PERIOD_MILLIS,
                        "fallback forced (" + SOURCE_PROPERTY + "=schedstat)");
            case "perf":
                return PerfSwitchCollector.start(pid, output);
            case "":
            case "auto":
                try {
                    return PerfSwitchCollector.start(pid, output);
                } catch (PerfUnavailableException e) {
                    return SchedstatSampler.start(pid, output, SchedstatSampler.DEFAULT_PERIOD_MILLIS,
                            e.getMessage());
                }
            default:
                throw new IllegalArgumentException("unknown scheduling source '" + source
                        + "' (expected auto, perf or schedstat)");
        }
    }
}
