package example;

import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** An application's two release sites, outside the packages the owner-method tally skips. */
public final class Releases {
    /** The fields of {@code lockscope.Unpark} that the owner-method tally reads, with the releaser's stack. */
    @Name("example.Release")
    @StackTrace(true)
    public static final class Release extends Event {
        public String blockerClass;
        public int blockerHash;
    }

    private Releases() {
    }

    public static void save(int times) {
        for (int i = 0; i < times; i++) {
            release().commit(); // the stack is walked here: this method is the innermost frame
        }
    }

    public static void load(int times) {
        for (int i = 0; i < times; i++) {
            release().commit();
        }
    }

    private static Release release() {
        Release r = new Release();
        r.blockerClass = "app.Store";
        r.blockerHash = 0x2a;
        return r;
    }
}
