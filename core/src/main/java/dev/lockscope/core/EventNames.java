package dev.lockscope.core;

import java.util.List;

/**
 * The names of the JFR events lockscope writes and reads, in one place: the agent's event classes
 * use them in their {@code @Name} annotations, the analysis's reader to find them in a recording.
 */
public final class EventNames {
    private EventNames() {
    }

    /** Every lockscope event name starts with this. */
    public static final String LOCKSCOPE_PREFIX = "lockscope.";

    public static final String PARK = "lockscope.Park";
    /** A park on a blocker first parked on at an idle place ({@link IdlePlaces}): no stack, no unpark event. */
    public static final String IDLE_PARK = "lockscope.IdlePark";
    public static final String UNPARK = "lockscope.Unpark";
    /** The unpark of a thread awaiting a {@code Condition}: the fields of {@link #UNPARK}, no stack. */
    public static final String CONDITION_UNPARK = "lockscope.ConditionUnpark";
    public static final String LOCK_SUMMARY = "lockscope.LockSummary";
    /** The agent's stack budget and the park and unpark events it refused, with every batch of summaries. */
    public static final String STACK_BUDGET = "lockscope.StackBudget";
    public static final String VIRTUAL_MONITOR_ENTER = "lockscope.VirtualMonitorEnter";
    /** Deep mode: the statistics of one lock object, of one acquiring site, and of the mode itself. */
    public static final String DEEP_LOCK = "lockscope.DeepLock";
    public static final String DEEP_SITE = "lockscope.DeepSite";
    public static final String DEEP_INFO = "lockscope.DeepInfo";
    /** Deep mode: a release of a monitor while another thread waited for it (exact owner chains in blame). */
    public static final String DEEP_RELEASE = "lockscope.DeepRelease";
    /** Steal accounting: the machine's busy and steal time, and each thread's CPU time, sampled together. */
    public static final String MACHINE_CPU = "lockscope.MachineCpu";
    public static final String THREAD_CPU = "lockscope.ThreadCpu";
    /** Which virtual thread ran on which carrier when: one mount interval (agent option {@code carriers}). */
    public static final String CARRIER_MOUNT = "lockscope.CarrierMount";

    public static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";
    public static final String MONITOR_WAIT = "jdk.JavaMonitorWait";
    public static final String THREAD_PARK = "jdk.ThreadPark";
    public static final String THREAD_SLEEP = "jdk.ThreadSleep";
    public static final String THREAD_START = "jdk.ThreadStart";
    public static final String THREAD_END = "jdk.ThreadEnd";
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    /** JDK 25's CPU-time sampler (JEP 509, Linux): threads sampled per CPU time used, in Java or native code. */
    public static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";
    public static final String VIRTUAL_THREAD_PINNED = "jdk.VirtualThreadPinned";
    public static final String CPU_INFORMATION = "jdk.CPUInformation";
    public static final String CONTAINER_CONFIGURATION = "jdk.ContainerConfiguration";
    public static final String INITIAL_SYSTEM_PROPERTY = "jdk.InitialSystemProperty";
    /** The settings in force (the execution samples' period, for wall-clock weights). */
    public static final String ACTIVE_SETTING = "jdk.ActiveSetting";
    /** Written by JFR at every chunk start, one per running recording, with its destination. */
    public static final String ACTIVE_RECORDING = "jdk.ActiveRecording";
    /** Blocking I/O, the off-CPU time of a wall-clock profile beside lock, park, wait and sleep. */
    public static final String SOCKET_READ = "jdk.SocketRead";
    public static final String SOCKET_WRITE = "jdk.SocketWrite";
    public static final String FILE_READ = "jdk.FileRead";
    public static final String FILE_WRITE = "jdk.FileWrite";
    public static final List<String> BLOCKING_IO = List.of(SOCKET_READ, SOCKET_WRITE, FILE_READ, FILE_WRITE);
    /** The blocking I/O the agent records by default (file I/O only with its fileIo option). */
    public static final List<String> SOCKET_IO = List.of(SOCKET_READ, SOCKET_WRITE);
}
