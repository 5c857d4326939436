package dev.lockscope.report.model;

import dev.lockscope.core.Frames;

/**
 * The one place where renderers turn a frame of a call chain into text and read its parts. Frames
 * are {@code package.Class.method:line} strings today; when they become structured records, only
 * this class changes.
 */
public final class FrameFormat {
    private FrameFormat() {
    }

    /** The frame as every format prints it: {@code package.Class.method:line}. */
    public static String print(String frame) {
        return frame;
    }

    /** {@code package.Class.method}, the frame without its line. */
    public static String function(String frame) {
        int colon = lineSeparator(frame);
        return colon < 0 ? frame : frame.substring(0, colon);
    }

    /** The source line, 0 when the frame has none. */
    public static long line(String frame) {
        int colon = lineSeparator(frame);
        return colon < 0 ? 0 : Long.parseLong(frame.substring(colon + 1));
    }

    /** {@code com.example.Inventory.reserve:42} → {@code Inventory.reserve}. */
    public static String classAndMethod(String frame) {
        String qualified = function(frame);
        int method = qualified.lastIndexOf('.');
        int pkg = method < 0 ? -1 : qualified.lastIndexOf('.', method - 1);
        return qualified.substring(pkg + 1);
    }

    /** {@code com.example.Inventory$Item.reserve} → {@code com/example/Inventory.java}; "" when not a method. */
    public static String sourceFile(String frame) {
        String function = function(frame);
        int method = function.lastIndexOf('.');
        if (method < 0 || function.contains("@")) {
            return "";
        }
        String cls = function.substring(0, method);
        int nested = cls.indexOf('$');
        return (nested < 0 ? cls : cls.substring(0, nested)).replace('.', '/') + ".java";
    }

    /** Whether the frame is in the JDK or in lockscope's agent rather than in the application. */
    public static boolean isRuntime(String frame) {
        return Frames.isRuntime(frame);
    }

    /** The index of the ':' before a line number, or -1. */
    private static int lineSeparator(String frame) {
        int colon = frame.lastIndexOf(':');
        if (colon <= 0 || colon == frame.length() - 1) {
            return -1;
        }
        for (int i = colon + 1; i < frame.length(); i++) {
            if (!Character.isDigit(frame.charAt(i))) {
                return -1;
            }
        }
        return colon;
    }
}
