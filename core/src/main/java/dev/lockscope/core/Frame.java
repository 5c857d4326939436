package dev.lockscope.core;

import java.util.List;

/**
 * One stack frame: class, method and source line, and its {@link FrameKind}, set once when the frame is
 * made. Its text, {@code package.Class.method:line} ({@code :line} left out when unknown), is the form
 * recordings, tables and exports carry; {@link #parse} is the one reader of that text. Its
 * {@link #function()} is kept once made: the reader interns one frame per distinct text
 * ({@link CallStack}), and owner blame asks each frame's function for every wait it weighs.
 */
public final class Frame {
    private final String className;
    private final String method;
    private final int line;
    private final FrameKind kind;
    /** {@link #function()}, made on first use (a race makes equal strings: harmless). */
    private String function;

    /** @param line the source line, or a negative number when unknown */
    public Frame(String className, String method, int line, FrameKind kind) {
        this.className = java.util.Objects.requireNonNull(className);
        this.method = java.util.Objects.requireNonNull(method);
        this.line = line;
        this.kind = java.util.Objects.requireNonNull(kind);
    }

    public String className() {
        return className;
    }

    public String method() {
        return method;
    }

    /** The source line, or a negative number when unknown. */
    public int line() {
        return line;
    }

    public FrameKind kind() {
        return kind;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Frame f && line == f.line && kind == f.kind && className.equals(f.className)
                && method.equals(f.method);
    }

    @Override
    public int hashCode() {
        return (className.hashCode() * 31 + method.hashCode()) * 31 + line;
    }

    public static Frame of(String className, String method, int line) {
        return new Frame(className, method, line, FrameClassifier.kindOf(className));
    }

    public static Frame of(StackTraceElement e) {
        return of(e.getClassName(), e.getMethodName(), e.getLineNumber());
    }

    /** The text of a frame: {@code package.Class.method:line}, or without {@code :line} for a negative line. */
    public static String format(String className, String methodName, int line) {
        String base = className + "." + methodName;
        return line >= 0 ? base + ":" + line : base;
    }

    public static String format(StackTraceElement e) {
        return format(e.getClassName(), e.getMethodName(), e.getLineNumber());
    }

    /**
     * The frame of a text made by {@link #format}. The method is what follows the last dot before the line,
     * so a hidden class's name with a dot in it ({@code App$$Lambda.0x1f08.run}) stays the class; a text
     * without a dot is a method of no class.
     */
    public static Frame parse(String text) {
        int end = lineSeparator(text);
        int line = end < 0 ? -1 : parseLine(text, end + 1);
        String function = end < 0 ? text : text.substring(0, end);
        int dot = function.lastIndexOf('.');
        String cls = dot < 0 ? "" : function.substring(0, dot);
        return new Frame(cls, function.substring(dot + 1), line, FrameClassifier.kindOf(cls));
    }

    /** The first frame of {@code frames} (innermost first) that is application code, or null. */
    public static Frame firstApplication(List<String> frames) {
        for (int i = 0; i < frames.size(); i++) {
            Frame f = CallStack.frameAt(frames, i);
            if (f.kind().isApplication()) {
                return f;
            }
        }
        return null;
    }

    /** Whether a frame of {@code frames} is in a method whose {@code package.Class.method} starts with {@code prefix}. */
    public static boolean anyFunctionStartsWith(List<String> frames, String prefix) {
        for (String f : frames) {
            // the method is the text up to its line's ':', so a match must end before it (checked in place, not
            // cut out as a substring: this runs for every frame of every unpark)
            if (f.startsWith(prefix) && prefix.length() <= functionEnd(f)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a frame of {@code frames} is in a method whose {@code package.Class.method} contains {@code part}. */
    public static boolean anyFunctionContains(List<String> frames, String part) {
        for (String f : frames) {
            int at = f.indexOf(part); // a later occurrence ends later still, so the first decides
            if (at >= 0 && at + part.length() <= functionEnd(f)) {
                return true;
            }
        }
        return false;
    }

    /** Where the function of a frame's text ends: at its line's ':', or at its end. */
    private static int functionEnd(String text) {
        int colon = lineSeparator(text);
        return colon < 0 ? text.length() : colon;
    }

    /** {@code package.Class.method}: the frame without its line. */
    public String function() {
        String f = function;
        if (f == null) {
            f = className.isEmpty() ? method : className + "." + method;
            function = f;
        }
        return f;
    }

    /** {@code Class.method} without the package ({@code Outer$Inner.method} for a nested class). */
    public String classAndMethod() {
        return simpleClassName() + "." + method;
    }

    /** {@code Class.method:line} without the package. */
    public String withoutPackage() {
        return line >= 0 ? classAndMethod() + ":" + line : classAndMethod();
    }

    /** The class without its package: {@code Outer$Inner}. */
    public String simpleClassName() {
        return simpleName(className);
    }

    /** {@code com.example.Inventory$Item} → {@code com/example/Inventory.java}; "" for a frame of no class. */
    public String sourceFile() {
        if (className.isEmpty() || className.contains("@") || method.contains("@")) {
            return "";
        }
        int nested = className.indexOf('$');
        return (nested < 0 ? className : className.substring(0, nested)).replace('.', '/') + ".java";
    }

    /** The package of a binary class name: {@code java.util.concurrent.locks.ReentrantLock$Sync} → {@code java.util.concurrent.locks}. */
    public static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** {@code java.util.concurrent.locks.ReentrantLock$NonfairSync} → {@code ReentrantLock$NonfairSync}. */
    public static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    @Override
    public String toString() {
        return line >= 0 ? function() + ":" + line : function();
    }

    /** The index of the ':' before a line number (a negative one, {@code :-1}, is "unknown"), or -1. */
    private static int lineSeparator(String text) {
        int colon = text.lastIndexOf(':');
        int digits = colon + (colon + 1 < text.length() && text.charAt(colon + 1) == '-' ? 2 : 1);
        if (colon <= 0 || digits >= text.length()) {
            return -1;
        }
        for (int i = digits; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return -1;
            }
        }
        return colon;
    }

    private static int parseLine(String text, int from) {
        if (text.charAt(from) == '-') {
            return -1;
        }
        long n = 0;
        for (int i = from; i < text.length() && n <= Integer.MAX_VALUE; i++) {
            n = n * 10 + (text.charAt(i) - '0');
        }
        return (int) Math.min(n, Integer.MAX_VALUE);
    }
}
