package dev.lockscope.agent;

import dev.lockscope.agent.boot.DeepHooks;
import dev.lockscope.agent.boot.DeepLockRecord;
import dev.lockscope.fixture.SynchronizedCallFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Hashtable;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fixture's calls of synchronized JDK methods wrapped in the receiver's monitor, then deep mode's own
 * instrumentation on top (as {@link DeepTransformer} does both): the code behaves as before, exceptions
 * included, and deep mode counts the table's monitor, which it cannot see inside the JDK.
 */
class SynchronizedCallsTest {
    private static Class<?> fixture;
    private static ClassNode wrapped;

    @BeforeAll
    static void instrument() throws Exception {
        byte[] original;
        try (InputStream in = SynchronizedCallFixture.class.getResourceAsStream("SynchronizedCallFixture.class")) {
            original = in.readAllBytes();
        }
        DeepSelection selection = DeepSelection.parse("dev.lockscope.fixture.*", null);
        String name = "dev/lockscope/fixture/SynchronizedCallFixture";
        byte[] first = SynchronizedCalls.wrap(original);
        assertThat(first).as("wrapped").isNotNull();
        wrapped = new ClassNode();
        new ClassReader(first).accept(wrapped, 0);
        DeepTransformer deep = new DeepTransformer(selection);
        byte[] out = deep.transform(null, null, name, null, null, original);
        assertThat(out).as("deep (failure: %s)", deep.failure()).isNotNull();
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(out), false, new PrintWriter(problems));
        assertThat(problems.toString()).isEmpty();
        fixture = InstrumentedFixture.load(SynchronizedCallFixture.class.getName(), out);
        DeepHooks.activate(1_000);
    }

    private static Object call(String method, Object... args) throws Throwable {
        return InstrumentedFixture.call(fixture, fixture.getConstructor().newInstance(), method, args);
    }

    /** gets and sections deep mode counted for this object, null when it has no record. */
    private static long[] counts(Object lock) {
        for (DeepLockRecord r : DeepHooks.records()) {
            if (r.identityHash == System.identityHashCode(lock) && !r.isDead()) {
                return r.counts();
            }
        }
        return null;
    }

    @Test
    void wrapsOnlyCallsOfSynchronizedMethodsOfTheJdkClassesByTheirStaticType() {
        long wrappers = wrapped.methods.stream().filter(m -> (m.access & Opcodes.ACC_SYNTHETIC) != 0
                && m.name.startsWith("lockscope$")).count();
        // lookup's computeIfAbsent, append's two appends and length, throwing's computeIfAbsent; not the Map call
        assertThat(wrappers).isEqualTo(5);
        MethodNode viaInterface = wrapped.methods.stream().filter(m -> m.name.equals("viaInterface")).findFirst().orElseThrow();
        for (AbstractInsnNode insn : viaInterface.instructions) {
            if (insn instanceof MethodInsnNode call) {
                assertThat(call.name).doesNotStartWith("lockscope$");
            }
        }
        assertThat(SynchronizedCalls.isSynchronized("java/util/Hashtable", "get", "(Ljava/lang/Object;)Ljava/lang/Object;")).isTrue();
        assertThat(SynchronizedCalls.isSynchronized("java/util/Hashtable", "getClass", "()Ljava/lang/Class;")).isFalse();
    }

    @Test
    void theTableIsLockedAroundTheCallAndDeepModeCountsIt() throws Throwable {
        Hashtable<Integer, String> table = new Hashtable<>();
        assertThat(call("lookup", table, 7)).isEqualTo("template-7 held");
        assertThat(call("lookup", table, 7)).isEqualTo("template-7 held");
        long[] c = counts(table);
        assertThat(c).as("deep mode's record of the table").isNotNull();
        assertThat(c[0]).as("gets").isEqualTo(2);
        assertThat(c[1]).as("non-recursive").isEqualTo(2);
        assertThat(Thread.holdsLock(table)).isFalse();
    }

    @Test
    void wideArgumentsAndResultsPassThrough() throws Throwable {
        StringBuffer sb = new StringBuffer("a");
        assertThat(call("append", sb, 42L, 1.5)).isEqualTo(6);
        assertThat(sb.toString()).isEqualTo("a421.5");
        assertThat(counts(sb)[0]).as("two appends and length()").isEqualTo(3);
    }

    @Test
    void anExceptionComesOutAndTheMonitorIsReleased() throws Throwable {
        Hashtable<Integer, String> table = new Hashtable<>();
        assertThatThrownBy(() -> call("throwing", table)).isInstanceOf(IllegalStateException.class).hasMessage("no template 1");
        assertThat(Thread.holdsLock(table)).isFalse();
        Thread other = new Thread(() -> {
            synchronized (table) {
                table.put(2, "two");
            }
        });
        other.start();
        other.join(10_000);
        assertThat(table).containsEntry(2, "two");
    }

    @Test
    void aSubclassThatMayNotSynchronizeIsCalledAsItWas() throws Throwable {
        Properties properties = new Properties();
        assertThat(call("lookup", properties, 3)).isEqualTo("template-3 held"); // Properties synchronizes compute* itself
        assertThat(counts(properties)).as("not locked by the wrapper").isNull();
    }
}
