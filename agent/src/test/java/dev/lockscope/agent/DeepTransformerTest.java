package dev.lockscope.agent;

import dev.lockscope.agent.boot.DeepHooks;
import dev.lockscope.agent.boot.DeepLockRecord;
import dev.lockscope.fixture.DeepFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.locks.ReentrantLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Instruments {@link DeepFixture}, checks it with ASM's verifier, loads it (the JVM verifies it again) and
 * runs every shape; the probes' counts must be exact and the code must behave as before, exceptions included.
 */
class DeepTransformerTest {
    private static Class<?> fixture;

    @BeforeAll
    static void instrument() throws Exception {
        byte[] original;
        try (InputStream in = DeepFixture.class.getResourceAsStream("DeepFixture.class")) {
            original = in.readAllBytes();
        }
        DeepTransformer t = new DeepTransformer(DeepSelection.parse("dev.lockscope.fixture.*", null));
        byte[] out = t.transform(null, null, "dev/lockscope/fixture/DeepFixture", null, null, original);
        assertThat(out).as("instrumented (failure: %s)", t.failure()).isNotNull();
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(out), false, new PrintWriter(problems));
        assertThat(problems.toString()).isEmpty();
        ClassNode node = new ClassNode();
        new ClassReader(out).accept(node, 0);
        for (MethodNode m : node.methods) {
            assertThat(m.access & Opcodes.ACC_SYNCHRONIZED).as("flag left on %s", m.name).isZero();
        }
        fixture = InstrumentedFixture.load(DeepFixture.class.getName(), out);
        DeepHooks.activate(1_000);
    }

    /** gets, non-recursive, slow, recursive, waits, notifies, sections, try failures of one object. */
    private static long[] counts(Object lock) {
        for (DeepLockRecord r : DeepHooks.records()) {
            if (r.identityHash == System.identityHashCode(lock) && !r.isDead()) {
                return r.counts();
            }
        }
        throw new AssertionError("no record of " + lock);
    }

    private static Object call(Object target, String method, Object... args) throws Throwable {
        return InstrumentedFixture.call(fixture, target, method, args);
    }

    @Test
    void synchronizedMethodsCountEveryReturnAndThrowPath() throws Throwable {
        Object f = fixture.getConstructor().newInstance();
        call(f, "inc");
        assertThatThrownBy(() -> call(f, "thrower")).isInstanceOf(IllegalStateException.class);
        assertThat(call(f, "countDown", 5)).isEqualTo(0);
        assertThat(counts(f)).containsExactly(3, 3, 0, 0, 0, 0, 3, 0, 0, 3);
        assertThat(Thread.holdsLock(f)).as("monitor released after the throw").isFalse();
        assertThat(call(null, "staticSum", 2L, 3.5)).isEqualTo(5L);
        assertThat(counts(fixture)).containsExactly(1, 1, 0, 0, 0, 0, 1, 0, 0, 1);
    }

    @Test
    void blocksCountNormalAndExceptionExitsAndRecursion() throws Throwable {
        Object f = fixture.getConstructor().newInstance();
        Object o = new Object();
        call(f, "block", o);
        assertThatThrownBy(() -> call(f, "blockThrows", o)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Thread.holdsLock(o)).isFalse();
        assertThat(counts(o)).containsExactly(2, 2, 0, 0, 0, 0, 2, 0, 0, 2);
        call(f, "nested");
        assertThat(counts(f)).containsExactly(2, 1, 0, 1, 0, 0, 1, 0, 0, 1);
    }

    @Test
    void waitSplitsTheSectionAndRestoresTheRecursion() throws Throwable {
        Object f = fixture.getConstructor().newInstance();
        call(f, "waitAndNotify");
        // enter, recursive enter, notifyAll, wait(1) (a section ends and a new one begins), exit twice
        assertThat(counts(f)).containsExactly(2, 1, 0, 1, 1, 1, 2, 0, 0, 2);
        call(f, "inc"); // the record's owner was cleared by the outermost exit: this is not recursive
        assertThat(counts(f)).containsExactly(3, 2, 0, 1, 1, 1, 3, 0, 0, 3);
    }

    @Test
    void lockCallsOfTheLockInterface() throws Throwable {
        Object f = fixture.getConstructor().newInstance();
        ReentrantLock l = new ReentrantLock();
        call(f, "locks", l);
        assertThat(l.isLocked()).isFalse();
        assertThat(counts(l)).containsExactly(2, 1, 0, 1, 0, 0, 1, 0, 0, 1);
    }

    @Test
    void lockCallsOfASubclassOfReentrantLockThroughItsOwnName() throws Throwable {
        Object f = fixture.getConstructor().newInstance();
        DeepFixture.OwnLock l = new DeepFixture.OwnLock();
        call(f, "ownLock", l);
        assertThat(l.isLocked()).isFalse();
        assertThat(counts(l)[0]).as("gets").isEqualTo(1);
    }

    @Test
    void selectionPatterns() {
        DeepSelection s = DeepSelection.parse("com.example.**:org.acme.Cache*", "com.example.internal.**");
        assertThat(s.selects("com.example.Foo")).isTrue();
        assertThat(s.selects("com.example.sub.Foo$Inner")).isTrue();
        assertThat(s.selects("com.example.internal.Foo")).isFalse();
        assertThat(s.selects("org.acme.CacheMap")).isTrue();
        assertThat(s.selects("org.acme.sub.CacheMap")).isFalse();
        assertThat(s.selects("org.acme.Other")).isFalse();
        assertThat(DeepSelection.parse("java.**", null).selects("java.util.Vector")).as("the JDK is never instrumented").isFalse();
        assertThat(DeepSelection.parse("com.example.*", null).selects("com.example.sub.Foo")).isFalse();
        assertThatThrownBy(() -> DeepSelection.parse("com/example", null)).isInstanceOf(IllegalArgumentException.class);
    }
}
