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
}
