package dev.lockscope.analysis.model;

/**
 * An analysis fed by one pass over a recording ({@link RecordingReader#read}). Each analysis keeps only
 * bounded state (per thread, lock and distinct stack, plus waits still open), never a list per event.
 *
 * <p>Order guarantees: lockscope's own events ({@link #parkBegin}, {@link #unpark}, {@link #parkEnd})
 * arrive in time order (at equal times a park begin, then unparks, then a park end), which is what
 * owner blame compares; the unpark that woke a park is the one of its thread numbered
 * {@code beginSeq + 1} (see {@link ParkWait}). JFR's events ({@link #monitorEnter}, {@link #monitorWait},
 * {@link #cpuSample}, {@link #sleep}, ...) arrive in order of their end time. The two groups interleave
 * only roughly by time; no analysis may depend on how. Every call comes on the thread that called
 * {@link RecordingReader#read} (the parsing may run on another), so a visitor needs no synchronisation.
 */
public interface RecordingVisitor {
    /** A park began; the record is open ({@link ParkWait#isOpen()}). */
    default void parkBegin(ParkWait open) {
    }

    /** {@code LockSupport.unpark} of a thread parked on a blocker. */
    default void unpark(Unpark u) {
    }

    /** A park ended: the same park as at {@link #parkBegin}, now with its end. */
    default void parkEnd(ParkWait ended) {
    }

    default void monitorEnter(MonitorEnter e) {
    }

    default void monitorWait(MonitorWait w) {
    }

    default void cpuSample(CpuSample s) {
    }

    /** {@code lockscope.LockSummary}, in time order with JFR's events; the latest of a blocker holds its totals. */
    default void lockSummary(LockSummary s) {
    }

    /** {@code lockscope.StackBudget}, with every batch of summaries: the latest holds the run's refused events. */
    default void stackBudget(StackBudget b) {
    }

    /** Deep mode's totals of one lock object, written at every chunk end: the latest of an object holds its run's. */
    default void deepLock(DeepLock l) {
    }

    /** Deep mode's totals of one site, likewise. */
    default void deepSite(DeepSite s) {
    }

    /** Deep mode: a monitor released while another thread waited for it, in time order with JFR's events. */
    default void deepRelease(DeepRelease r) {
    }

    /** Deep mode's selection and probe cost, once per chunk. */
    default void deepInfo(DeepInfo i) {
    }

    /** {@code jdk.ThreadSleep}. */
    default void sleep(Interval i) {
    }

    /** {@code jdk.ThreadPark}. */
    default void jdkPark(JdkPark p) {
    }

    /** {@code jdk.SocketRead/Write}, {@code jdk.FileRead/Write}: a thread blocked in I/O. */
    default void blockingIo(Interval i) {
    }

    /**
     * When the recording's settings tell, before the samples of the chunk that says so: the period at
     * which JFR took {@link #cpuSample}s (again when a later setting is shorter: JFR samples at the
     * shortest period any recording asks for).
     */
    default void cpuSamplingPeriod(long nanos) {
    }

    /** One JVM thread's CPU time at one sample of the agent's CPU-time sampler (steal accounting). */
    default void threadCpu(ThreadCpu t) {
    }

    /** The machine's CPU and steal time, closing the sample of the {@link #threadCpu}s with its number. */
    default void machineCpu(MachineCpu m) {
    }

    /** A thread started or ended. */
    default void threadLife(ThreadLife t) {
    }

    /**
     * A virtual thread held its carrier while blocked (JDK 21+): {@code jdk.VirtualThreadPinned}, or a
     * {@code jdk.JavaMonitorEnter} of a virtual thread (the JVM records those only while pinned), which
     * also arrives at {@link #monitorEnter}.
     */
    default void pinned(Interval i) {
    }

    /**
     * Before {@link #finish}, when the recording tells: the virtual-thread scheduler's parallelism
     * ({@code -Djdk.virtualThreadScheduler.parallelism}, else the container's, else the machine's CPUs).
     */
    default void virtualThreadCarriers(int count) {
    }

    /**
     * A virtual thread's mount interval on a carrier ({@code lockscope.CarrierMount}, agent option
     * {@code carriers}); arrives some milliseconds after its end, in no particular order.
     */
    default void carrierMount(CarrierMount m) {
    }

    /**
     * After the last event. Parks begun and never ended are still open ("parked now"); they end at
     * {@link RecordingInfo#endNanos()} for analyses that need an end.
     */
    default void finish(RecordingInfo info) {
    }
}
