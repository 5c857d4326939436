package dev.lockscope.core;

/** The one textual form of a stack frame used everywhere: {@code package.Class.method:line}. */
public final class Frames {
    private Frames() {
    }

    /** @param line the source line, or a negative number when unknown (then no {@code :line}) */
    public static String format(String className, String methodName, int line) {
        String base = className + "." + methodName;
        return line >= 0 ? base + ":" + line : base;
    }

    public static String format(StackTraceElement e) {
        return format(e.getClassName(), e.getMethodName(), e.getLineNumber());
    }

    private static final String[] RUNTIME_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.lockscope.agent."};

    /** Whether the frame is in the JDK or in lockscope's agent rather than in the application. */
    public static boolean isRuntime(String frame) {
        for (String p : RUNTIME_PACKAGES) {
            if (frame.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The profiler's own code: lockscope's agent (its metrics server included) and JFR. The JDK's
     * {@code com.sun.net.httpserver} is not in it: lockscope serves its metrics itself, so a dispatcher of
     * that server is the application's.
     */
    private static final String[] PROFILER_PACKAGES = {"dev.lockscope.agent.", "jdk.jfr."};

    /**
     * Whether a lock waited for at {@code frames} (innermost first) is the profiler's own rather than
     * the application's: the innermost frame past the JDK's library code is in the profiler's code,
     * as where JFR's periodic thread or lockscope's threads (the metrics server's among them) wait.
     * A frame of the application before it makes it the application's (its call into the JDK).
     */
    public static boolean isProfilersOwn(java.util.List<String> frames) {
        for (String frame : frames) {
            for (String p : PROFILER_PACKAGES) {
                if (frame.startsWith(p)) {
                    return true;
                }
            }
            if (!isRuntime(frame)) {
                return false;
            }
        }
        return false;
    }

    /**
     * The innermost frame outside the JDK and lockscope (where the application asked for the lock), or
     * the innermost frame when all are runtime frames; null for an empty chain.
     */
    public static String firstApplicationFrame(java.util.List<String> frames) {
        for (String frame : frames) {
            if (!isRuntime(frame)) {
                return frame;
            }
        }
        return frames.isEmpty() ? null : frames.get(0);
    }
}
