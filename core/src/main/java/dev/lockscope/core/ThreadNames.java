package dev.lockscope.core;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * How lockscope names a thread, in the agent's table and in reports alike: a platform thread by its
 * name; a virtual thread (which usually has none) as {@code virtual#<id>}, or {@code <name> (virtual#<id>)}.
 */
public final class ThreadNames {
    /** {@code Thread.isVirtual()} where the running JDK has it (21+); null on JDK 17. */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private ThreadNames() {
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The name of a virtual thread with Java thread id {@code id}; {@code name} may be null or empty. */
    public static String virtual(long id, String name) {
        String tag = "virtual#" + id;
        return name == null || name.isEmpty() ? tag : name + " (" + tag + ")";
    }

    /** The name of a live thread, virtual or not. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, and this runs on 17
    public static String of(Thread t) {
        if (IS_VIRTUAL != null) {
            try {
                if ((boolean) IS_VIRTUAL.invokeExact(t)) {
                    return virtual(t.getId(), t.getName());
                }
            } catch (Throwable e) {
                // cannot happen for a public no-argument method; fall back to the plain name
            }
        }
        return t.getName();
    }
}
