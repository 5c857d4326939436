package dev.lockscope.analysis.blame;

import java.util.List;

/** Reading the frame strings {@code package.Class.method:line} of the model. */
final class FrameText {
    private FrameText() {
    }

    /** {@code package.Class.method}, the frame without its line. */
    static String method(String frame) {
        int colon = frame.lastIndexOf(':');
        return colon < 0 ? frame : frame.substring(0, colon);
    }

    /** Whether any frame is in a method whose {@code package.Class.method} starts with {@code prefix}. */
    static boolean anyMethodStartsWith(List<String> frames, String prefix) {
        for (String f : frames) {
            if (method(f).startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Whether any frame is in a method whose name contains {@code part}. */
    static boolean anyMethodContains(List<String> frames, String part) {
        for (String f : frames) {
            if (method(f).contains(part)) {
                return true;
            }
        }
        return false;
    }
}
