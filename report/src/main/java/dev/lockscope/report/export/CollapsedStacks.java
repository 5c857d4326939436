package dev.lockscope.report.export;

import dev.lockscope.analysis.blame.BlameSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Brendan Gregg's collapsed-stack format ({@code root;...;leaf value} per line), read by
 * flamegraph.pl, speedscope and most flame-graph tools: wait nanoseconds per distinct stack of the
 * chosen side, root first, the lock as leaf; or a profile's nanoseconds per call path. Lines are sorted
 * so the output is stable.
 */
public final class CollapsedStacks {
    private CollapsedStacks() {
    }

    public static String render(BlameSummary blame, Side side) {
        return render(BlameStacks.of(blame, side));
    }

    /** Any stacks: the blame's, or a profile's ({@link ProfileStacks}). */
    public static String render(List<BlameStacks.Stack> stacks) {
        Map<String, Long> nanosByStack = new TreeMap<>();
        for (BlameStacks.Stack s : stacks) {
            nanosByStack.merge(line(s), s.nanos(), Long::sum);
        }
        StringBuilder out = new StringBuilder();
        nanosByStack.forEach((stack, nanos) -> out.append(stack).append(' ').append(nanos).append('\n'));
        return out.toString();
    }

    /** Root first: the frames from the outermost, then the lock (if the stack has one). */
    private static String line(BlameStacks.Stack s) {
        List<String> names = new ArrayList<>();
        List<String> frames = s.frames();
        if (frames.isEmpty()) {
            names.add(s.placeholder());
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            names.add(name(frames.get(i)));
        }
        if (s.lock() != null) {
            names.add(name(s.lock()));
        }
        return String.join(";", names);
    }

    /** ';' separates frames (the value follows the last space, so spaces inside frames are fine). */
    private static String name(String frame) {
        return frame.replace(';', ',');
    }
}
