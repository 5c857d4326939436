package dev.lockscope.report.export;

import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.report.model.FrameFormat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Brendan Gregg's collapsed-stack format ({@code root;...;leaf value} per line), read by
 * flamegraph.pl, speedscope and most flame-graph tools: wait nanoseconds per distinct stack of the
 * chosen side, root first, the lock as leaf. Lines are sorted so the output is stable.
 */
public final class CollapsedStacks {
    private CollapsedStacks() {
    }

    public static String render(BlameSummary blame, Side side) {
        Map<String, Long> nanosByStack = new TreeMap<>();
        for (BlameStacks.Stack s : BlameStacks.of(blame, side)) {
            nanosByStack.merge(line(s), s.nanos(), Long::sum);
        }
        StringBuilder out = new StringBuilder();
        nanosByStack.forEach((stack, nanos) -> out.append(stack).append(' ').append(nanos).append('\n'));
        return out.toString();
    }

    /** Root first: the frames from the outermost, then the lock. */
    private static String line(BlameStacks.Stack s) {
        StringBuilder sb = new StringBuilder();
        List<String> frames = s.frames();
        if (frames.isEmpty()) {
            sb.append(s.placeholder()).append(';');
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            sb.append(name(FrameFormat.print(frames.get(i)))).append(';');
        }
        return sb.append(name(s.lock())).toString();
    }

    /** ';' separates frames (the value follows the last space, so spaces inside frames are fine). */
    private static String name(String frame) {
        return frame.replace(';', ',');
    }
}
