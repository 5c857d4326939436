package dev.lockscope.agent;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Instruments the running JDK's own LockSupport and AQS and checks the result with ASM's verifier. */
class LockTransformerTest {
    private static byte[] jdkClass(String internalName) throws Exception {
        try (InputStream in = Object.class.getResourceAsStream("/" + internalName + ".class")) {
            return in.readAllBytes();
        }
    }

    private static List<String> hookCalls(byte[] bytes) {
        return InjectedCalls.of(bytes, "dev/lockscope/agent/boot/ParkHooks");
    }

    private static String verify(byte[] bytes) {
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(bytes), false, new PrintWriter(problems));
        return problems.toString();
    }

    @Test
    void lockSupportParkAndUnparkAreWrapped() throws Exception {
        LockTransformer t = new LockTransformer();
        byte[] out = t.instrument(LockTransformer.LOCK_SUPPORT, jdkClass(LockTransformer.LOCK_SUPPORT));
        assertThat(hookCalls(out)).contains(
                "park->parkBegin", "park->parkEnd", "park->parkBeginCurrentBlocker",
                "parkNanos->parkBegin", "parkNanos->parkEnd",
                "parkUntil->parkBegin", "parkUntil->parkEnd",
                "unpark->unparkBegin", "unpark->unparkEnd", "parkNanos->parkBeginCurrentBlocker",
                "parkUntil->parkBeginCurrentBlocker");
        // park(), park(Object), parkNanos(Object, long), parkUntil(Object, long), parkNanos(long), parkUntil(long), unpark
        assertThat(t.transformedMethods()).isEqualTo(7);
        assertThat(verify(out)).isEmpty();
    }

    /** AQS.acquire is not hooked: a contended acquisition waits in a park, which is; AQS's code stays the JDK's. */
    @Test
    void aqsIsLeftAlone() throws Exception {
        LockTransformer t = new LockTransformer();
        String aqs = "java/util/concurrent/locks/AbstractQueuedSynchronizer";
        assertThat(t.selects(aqs, false)).isFalse();
        assertThat(t.transform(null, null, aqs, null, null, jdkClass(aqs))).isNull();
    }

    @Test
    void otherClassesAreLeftAlone() throws Exception {
        LockTransformer t = new LockTransformer();
        assertThat(t.transform(null, null, "java/lang/String", null, null, jdkClass("java/lang/String"))).isNull();
    }
}
