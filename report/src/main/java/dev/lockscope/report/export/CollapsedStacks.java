package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.node.ObjectNode;

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

    public static String render(ObjectNode doc, Side side) {
        Map<String, Long> nanosByStack = new TreeMap<>();
        for (BlameStacks.Stack s : BlameStacks.of(doc, side)) {
            nanosByStack.merge(line(s.frames()), s.nanos(), Long::sum);
        }
        StringBuilder out = new StringBuilder();
        nanosByStack.forEach((stack, nanos) -> out.append(stack).append(' ').append(nanos).append('\n'));
        return out.toString();
    }

    private static String line(List<String> innermostFirst) {
        StringBuilder sb = new StringBuilder();
        for (int i = innermostFirst.size() - 1; i >= 0; i--) {
            // ';' separates frames (the value follows the last space, so spaces inside frames are fine)
            sb.append(innermostFirst.get(i).replace(';', ','));
            if (i > 0) {
                sb.append(';');
            }
        }
        return sb.toString();
    }
}
