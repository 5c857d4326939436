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

    /** Where the method of {@code frame} ends: its last ':' (before the line), or its length. */
    private static int methodEnd(String frame) {
        int colon = frame.lastIndexOf(':');
        return colon < 0 ? frame.length() : colon;
    }

    /** Whether any frame is in a method whose {@code package.Class.method} starts with {@code prefix}. */
    static boolean anyMethodStartsWith(List<String> frames, String prefix) {
        for (String f : frames) {
            // the method is the frame up to its last ':', so a match must end before that colon (not
            // cut out as a substring: this runs for every frame of every unpark)
            if (f.startsWith(prefix) && prefix.length() <= methodEnd(f)) {
                return true;
            }
        }
        return false;
    }

    /** Whether any frame is in a method whose name contains {@code part}. */
    static boolean anyMethodContains(List<String> frames, String part) {
        for (String f : frames) {
            int at = f.indexOf(part); // a later occurrence ends later still, so the first decides
            if (at >= 0 && at + part.length() <= methodEnd(f)) {
                return true;
            }
        }
        return false;
    }
}
