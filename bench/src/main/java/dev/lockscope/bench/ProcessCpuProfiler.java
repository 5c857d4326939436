package dev.lockscope.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.Collection;
import java.util.List;

/**
 * {@link ProcessCpu} for JMH: {@code -prof dev.lockscope.bench.ProcessCpuProfiler} reports, per iteration, the
 * process's CPU time per wall second (cores busy) as the secondary result {@value #LABEL}, averaged over the
 * measured iterations in the JSON result. With {@code -f 0}, as the overhead harness runs JMH, the iterations
 * run in the JVM the profiler under test was started with.
 */
public final class ProcessCpuProfiler implements InternalProfiler {
    static final String LABEL = "process.cpu.cores";

    private long cpuAtStart;
    private long wallAtStart;

    @Override
    public String getDescription() {
        return "process CPU time per wall second of each iteration (cores busy)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
        wallAtStart = System.nanoTime();
        cpuAtStart = ProcessCpu.nanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
        long cpu = ProcessCpu.nanos() - cpuAtStart;
        long wall = System.nanoTime() - wallAtStart;
        return List.of(new ScalarResult(LABEL, (double) cpu / wall, "cores", AggregationPolicy.AVG));
    }
}
