package dev.lockscope.core;

/**
 * The one decision of whose code a frame is in ({@link FrameKind}), by its class: the agent's table,
 * the reader and every analysis ask here, so "the JDK" and "lockscope's own" mean the same everywhere.
 * Classes are matched by package prefix; the runtime list is checked first because JFR lives under
 * {@code jdk.}.
 */
public final class FrameClassifier {
    private FrameClassifier() {
    }

    /**
     * JFR and lockscope itself (agent, hooks, core, shaded ASM, its metrics server). The JDK's
     * {@code com.sun.net.httpserver} is not among them: lockscope serves its metrics itself, so a dispatcher
     * of that server is the application's.
     */
    private static final String[] RUNTIME_PACKAGES = {"jdk.jfr.", "dev.lockscope.agent.", "dev.lockscope.core.",
            "dev.lockscope.shaded."};
    private static final String[] JDK_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun."};
    /**
     * Classes whose methods take a lock for their caller: Jetty's {@code AutoLock} ({@code try (var l = lock.lock())}),
     * Guava's cycle-detecting locks and {@code Monitor}. A helper of the application's own is recognised
     * from the recording instead ({@link LockSites}).
     */
    private static final String[] LOCK_WRAPPER_CLASSES = {"org.eclipse.jetty.util.thread.AutoLock",
            "com.google.common.util.concurrent.CycleDetectingLockFactory$", "com.google.common.util.concurrent.Monitor"};

    /**
     * The JDK's lock machinery: the frames a wait passes through between the code that asked for a lock
     * (which may itself be the JDK's, {@code LinkedBlockingQueue.put}) and the park or wait itself. A frame of a
     * function starting so ({@code Condition.await} blocks through {@code ForkJoinPool.managedBlock}).
     */
    private static final String[] LOCK_MACHINERY = {"java.util.concurrent.locks.", "jdk.internal.misc.Unsafe.",
            "java.util.concurrent.Semaphore.", "java.util.concurrent.CountDownLatch.", "java.util.concurrent.CyclicBarrier.",
            "sun.misc.Unsafe.", "java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
            "java.lang.Object.wait"};

    /** Whether a frame is in the JDK's lock machinery ({@link #LOCK_MACHINERY}) or in the recorder's own code. */
    public static boolean isLockMachinery(Frame frame) {
        return frame.kind() == FrameKind.RUNTIME
                || frame.kind() == FrameKind.JDK && startsWithAny(frame.function(), LOCK_MACHINERY);
    }

    /** The kind of a frame in class {@code className} (binary name, {@code pkg.Outer$Inner}). */
    public static FrameKind kindOf(String className) {
        if (startsWithAny(className, RUNTIME_PACKAGES)) {
            return FrameKind.RUNTIME;
        }
        if (startsWithAny(className, JDK_PACKAGES)) {
            return FrameKind.JDK;
        }
        for (String w : LOCK_WRAPPER_CLASSES) {
            // the class itself or its nested classes (AutoLock$WithCondition), not AutoLockFoo
            if (className.startsWith(w) && (className.length() == w.length() || w.endsWith("$")
                    || className.charAt(w.length()) == '$')) {
                return FrameKind.LOCK_WRAPPER;
            }
        }
        return FrameKind.APPLICATION;
    }

    /** Whether code of this class is the JDK's or the recorder's rather than the application's. */
    public static boolean isJdkOrRuntime(String className) {
        FrameKind k = kindOf(className);
        return k == FrameKind.JDK || k == FrameKind.RUNTIME;
    }

    /**
     * Whether a lock waited for at {@code frames} is the profiler's own rather than the application's:
     * the chain runs through the recorder's code ({@link FrameKind#RUNTIME}: JFR's periodic thread,
     * lockscope's threads) and through no code of the application's. A hook of lockscope's that the
     * application's code called (deep mode's monitor hooks sit innermost on its stacks) leaves the lock
     * the application's, and so does a JDK lock the application asked for.
     */
    /**
     * Whether a thread of this name is the profiler's: lockscope's threads (all named {@code lockscope-...}) and JFR's
     * ({@code JFR Periodic Tasks}, {@code JFR Recorder Thread}, ...). For a wait JFR recorded without a stack, the
     * only sign of whose it is (JDK 25: lockscope's warm-up thread blocked 30 µs on {@code main}'s Thread monitor,
     * a {@code monitor Thread} row of "contention" in an idle program's report).
     */
    public static boolean isProfilersThread(String threadName) {
        return threadName != null && (threadName.startsWith("lockscope-") || threadName.startsWith("JFR "));
    }

    public static boolean isProfilersOwn(java.util.List<String> frames) {
        boolean runtime = false;
        for (Frame frame : CallStack.framesOf(frames)) {
            FrameKind kind = frame.kind();
            if (kind == FrameKind.APPLICATION || kind == FrameKind.LOCK_WRAPPER) {
                return false;
            }
            runtime |= kind == FrameKind.RUNTIME;
        }
        return runtime;
    }

    private static boolean startsWithAny(String s, String[] prefixes) {
        for (String p : prefixes) { // an index loop over an array: the agent classifies each new blocker's frames
            if (s.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
