package dev.lockscope.agent;

import org.objectweb.asm.ClassReader;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Whether a class that instrumented code calls {@code lock()} or {@code unlock()} on is one of the JDK's lock classes
 * or extends one: a library's own subclass is called through its own name (commons-pool2's deque takes an
 * {@code InterruptibleReentrantLock}, a {@code ReentrantLock}), and deep mode must time those holds too. The
 * superclasses are read from the class files the loader would define, without loading them: a transformer that
 * loads classes can deadlock on the loader it runs under. One instance per class instrumented, its answers kept.
 */
final class LockClasses {
    /** The JDK's classes whose {@code lock/unlock} deep mode counts when called through the class's own name. */
    static final Set<String> JDK = Set.of("java/util/concurrent/locks/ReentrantLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock");
    /** Superclasses followed at most: a deeper hierarchy is not a lock here (and no file is read without end). */
    private static final int MAX_DEPTH = 16;

    private final ClassLoader loader;
    private final Map<String, Boolean> known = new HashMap<>();

    /** @param loader the loader of the class being instrumented; null for the boot loader */
    LockClasses(ClassLoader loader) {
        this.loader = loader;
    }

    /** Whether {@code internalName} ({@code a/b/C}) is one of {@link #JDK} or a subclass of one. */
    boolean isLock(String internalName) {
        if (JDK.contains(internalName)) {
            return true;
        }
        Boolean seen = known.get(internalName);
        if (seen != null) {
            return seen;
        }
        boolean lock = false;
        String c = internalName;
        for (int depth = 0; depth < MAX_DEPTH && c != null; depth++) {
            if (JDK.contains(c)) {
                lock = true;
                break;
            }
            if (c.startsWith("java/")) {
                break; // the JDK's own class, none of them: Object, or a class that is no lock
            }
            c = superclassOf(c);
        }
        known.put(internalName, lock);
        return lock;
    }

    /** The superclass named in the class file, or null when the loader has no such file or it cannot be read. */
    private String superclassOf(String internalName) {
        String file = internalName + ".class";
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(file) : loader.getResourceAsStream(file)) {
            return in == null ? null : new ClassReader(in).getSuperName();
        } catch (IOException | RuntimeException e) {
            return null; // unreadable: not counted as a lock, the call left as it is
        }
    }
}
