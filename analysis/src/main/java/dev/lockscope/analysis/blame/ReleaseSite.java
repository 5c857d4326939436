package dev.lockscope.analysis.blame;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.Frame;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a blocker without an owner was released, from the releaser's stack (innermost first): the code that
 * released, not the blocker's own release machinery. The innermost application frames are that machinery, in one
 * package (HSQLDB's {@code CountUpDownLatch} in {@code org.hsqldb.lib}, commons-pool's deque); the release site is
 * the innermost application frame outside that package, with the outermost frame of its library when other code
 * called that library: the call the application made ({@code JDBCConnection.commit}). Lambdas' hidden classes are
 * skipped; the first application frame when every one is in the machinery's package.
 *
 * @param inner the code that released
 * @param entry its library's entry call, or null when there is none to name (the application's own code)
 */
public record ReleaseSite(Frame inner, Frame entry) {
    /** The release site of a stack, or null when it has no application frame. */
    public static ReleaseSite of(List<String> frames) {
        List<Frame> app = new ArrayList<>();
        for (Frame f : CallStack.framesOf(frames)) {
            if (f.kind().isApplication() && !f.function().contains("$$Lambda")) { // a lambda's hidden class says nothing
                app.add(f);
            }
        }
        if (app.isEmpty()) {
            return null;
        }
        String machinery = packageOf(app.get(0));
        int inner = 0;
        while (inner < app.size() && packageOf(app.get(inner)).equals(machinery)) {
            inner++;
        }
        if (inner == app.size()) {
            return new ReleaseSite(app.get(0), null);
        }
        String library = libraryOf(app.get(inner));
        int outer = inner;
        while (outer + 1 < app.size() && libraryOf(app.get(outer + 1)).equals(library)) {
            outer++;
        }
        // the entry call only when another library called it: the application's own code is named where it released
        boolean entered = outer > inner && outer + 1 < app.size();
        return new ReleaseSite(app.get(inner), entered ? app.get(outer) : null);
    }

    /** {@code JDBCConnection.commit > … > TransactionManagerCommon.setWaitingSessionTPL}, or the inner method alone. */
    public String label() {
        return entry == null ? inner.classAndMethod() : entry.classAndMethod() + " > … > " + inner.classAndMethod();
    }

    private static String packageOf(Frame f) {
        String cls = f.function().substring(0, Math.max(0, f.function().lastIndexOf('.')));
        return cls.substring(0, Math.max(0, cls.lastIndexOf('.')));
    }

    /** The first two parts of a frame's package ({@code org.hsqldb}): one library's code. */
    private static String libraryOf(Frame f) {
        String[] parts = packageOf(f).split("\\.");
        return parts.length < 2 ? packageOf(f) : parts[0] + "." + parts[1];
    }
}
