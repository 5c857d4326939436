package dev.lockscope.locks;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * An asymmetric fence (Kawachiya §6.4.3; Linux {@code membarrier(2)}): the frequent side of a Dekker-style
 * race (a lock's owner, a flat releaser) drops its store-&gt;load fence, and the rare side (a non-owner, a
 * contender about to wait) calls {@link #heavy()}, which makes every CPU running a thread of this process
 * execute a full memory barrier before it returns ({@code MEMBARRIER_CMD_PRIVATE_EXPEDITED}, IPIs).
 *
 * <p>Why that suffices: the light side stores X, then loads Y; the heavy side stores Y, calls {@link #heavy()},
 * then loads X. The barrier the call forces on the light side's CPU falls before its store (then its load of
 * Y comes after the heavy side's store was visible), between store and load, or after its load (then its
 * store of X was visible before the heavy side's load): in every case one side sees the other's store, the
 * SB outcome is forbidden. The light side still needs its store and load kept in program order by the
 * compiler: its accesses are opaque/release/acquire {@code VarHandle} accesses, which HotSpot's JITs keep
 * in order (as we read C2: CPU-order barriers around ordered Unsafe accesses) and x86 issues with plain moves. That
 * is an implementation property outside the Java memory model, as membarrier itself is; the jcstress tests
 * check it (both paths) and their negative controls show the races are caught when the fence is missing.
 *
 * <p>Available when all hold: JDK 22+ (the FFM API, reached by reflection so this class stays Java 17
 * bytecode), native access enabled for this library's module (the application passes
 * {@code --enable-native-access=ALL-UNNAMED}, or the module's name; without it nothing native is touched, so
 * the JDK prints no warning), Linux on x86_64 or AArch64, and the kernel supports and registers the
 * private expedited command (Linux 4.14+). Otherwise {@link #ENABLED} is false and every lock keeps its
 * volatile store+load (a locked instruction on x86) on the light side.
 */
final class AsymmetricFence {

    /** Whether the locks use the asymmetric fence; decided once, at class initialization. */
    static final boolean ENABLED;
    /** Why it is on or off, for {@link #main} and the docs. */
    static final String MODE;
    private static final MethodHandle SYSCALL; // long syscall(long nr, int cmd, int flags, int cpu), variadic

    private static final int MEMBARRIER_CMD_QUERY = 0;
    private static final int MEMBARRIER_CMD_PRIVATE_EXPEDITED = 1 << 3;
    private static final int MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED = 1 << 4;
    private static final long SYS_MEMBARRIER;

    static {
        String arch = System.getProperty("os.arch", "");
        SYS_MEMBARRIER = arch.equals("amd64") || arch.equals("x86_64") ? 324L : arch.equals("aarch64") ? 283L : -1L;
        MethodHandle syscall = null;
        String mode;
        try {
            mode = unavailableBecause(arch);
            if (mode == null) {
                syscall = linkSyscall();
                long supported = (long) syscall.invokeExact(SYS_MEMBARRIER, MEMBARRIER_CMD_QUERY, 0, 0);
                int needed = MEMBARRIER_CMD_PRIVATE_EXPEDITED | MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
                if (supported < 0 || (supported & needed) != needed) {
                    mode = "volatile (the kernel has no private expedited membarrier)";
                } else if ((long) syscall.invokeExact(SYS_MEMBARRIER, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0L) {
                    mode = "volatile (membarrier registration failed)";
                } else {
                    mode = "membarrier";
                }
            }
        } catch (Throwable e) {
            // Any failure only means the fallback: a lock must work without the native path.
            mode = "volatile (membarrier unavailable: " + e + ")";
        }
        ENABLED = mode.equals("membarrier");
        MODE = mode;
        SYSCALL = ENABLED ? syscall : null;
    }

    private AsymmetricFence() {
    }

    private static String unavailableBecause(String arch) throws ReflectiveOperationException {
        if (!System.getProperty("os.name", "").equals("Linux") || SYS_MEMBARRIER < 0) {
            return "volatile (membarrier is Linux x86_64/aarch64 only; here " + System.getProperty("os.name") + " " + arch + ")";
        }
        if (Runtime.version().feature() < 22) {
            return "volatile (JDK " + Runtime.version().feature() + ": no FFM API before JDK 22)";
        }
        Method enabled = Module.class.getMethod("isNativeAccessEnabled");
        if (!(boolean) enabled.invoke(AsymmetricFence.class.getModule())) {
            return "volatile (native access not enabled: run with --enable-native-access=ALL-UNNAMED)";
        }
        return null;
    }

    /** {@code Linker.nativeLinker().downcallHandle(syscall, (long, int...) -> long, firstVariadicArg(1))}. */
    private static MethodHandle linkSyscall() throws ReflectiveOperationException {
        Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
        Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> lookupClass = Class.forName("java.lang.foreign.SymbolLookup");
        Class<?> segmentClass = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayoutClass = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
        Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
        Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
        Optional<?> symbol = (Optional<?>) lookupClass.getMethod("find", String.class).invoke(lookup, "syscall");
        if (symbol.isEmpty()) {
            throw new NoSuchMethodException("syscall not found in the C library");
        }
        Object javaLong = valueLayoutClass.getField("JAVA_LONG").get(null);
        Object javaInt = valueLayoutClass.getField("JAVA_INT").get(null);
        Object arguments = Array.newInstance(layoutClass, 4);
        Array.set(arguments, 0, javaLong);
        Array.set(arguments, 1, javaInt);
        Array.set(arguments, 2, javaInt);
        Array.set(arguments, 3, javaInt);
        Object descriptor = descriptorClass.getMethod("of", layoutClass, arguments.getClass())
                .invoke(null, javaLong, arguments);
        Object options = Array.newInstance(optionClass, 1);
        // syscall(2) is variadic after the number; int is a promoted type, so JAVA_INT is a legal variadic layout.
        Array.set(options, 0, optionClass.getMethod("firstVariadicArg", int.class).invoke(null, 1));
        return (MethodHandle) linkerClass.getMethod("downcallHandle", segmentClass, descriptorClass, options.getClass())
                .invoke(linker, symbol.get(), descriptor, options);
    }

    /**
     * The heavy side: returns after every running thread of this process executed a full memory barrier.
     * Call only when {@link #ENABLED}. After a successful registration the kernel cannot refuse the command;
     * if it ever did, the light sides would run unfenced, so that is an error, not a silent fallback.
     */
    static void heavy() {
        long result;
        try {
            result = (long) SYSCALL.invokeExact(SYS_MEMBARRIER, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
        } catch (Throwable e) {
            throw new InternalError("membarrier failed", e);
        }
        if (result != 0L) {
            throw new InternalError("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) returned " + result);
        }
    }

    /** Prints which fence the locks use in this JVM (the stress and benchmark scripts record it). */
    public static void main(String[] args) {
        System.out.println(MODE);
    }
}
