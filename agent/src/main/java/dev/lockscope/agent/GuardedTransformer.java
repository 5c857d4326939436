package dev.lockscope.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * The guard every lockscope transformer needs around its instrumentation: a class it does not select
 * passes through untouched, and a failure while instrumenting one it does is kept for the agent to
 * report and leaves that class as it was (a transformer that throws would be ignored by the JVM for
 * that class anyway, but the user should hear why a class was not instrumented).
 */
abstract class GuardedTransformer implements ClassFileTransformer {
    private volatile Throwable failure;

    @Override
    public final byte[] transform(Module module, ClassLoader loader, String internalName, Class<?> classBeingRedefined,
                                  ProtectionDomain domain, byte[] classfileBuffer) {
        if (internalName == null || !selects(internalName, classBeingRedefined != null)) {
            return null;
        }
        try {
            return instrument(loader, internalName, classfileBuffer);
        } catch (Throwable t) {
            failure = t; // returning null leaves the class as it was
            return null;
        }
    }

    /** Whether to instrument this class ({@code a/b/C}); {@code redefining} when it is already loaded. */
    abstract boolean selects(String internalName, boolean redefining);

    /** The instrumented class, or null to leave it as it is. */
    abstract byte[] instrument(String internalName, byte[] bytes);

    /** The same, for a transformer that reads other classes' files through the class's loader (null: the boot loader). */
    byte[] instrument(ClassLoader loader, String internalName, byte[] bytes) {
        return instrument(internalName, bytes);
    }

    /** The last failure to instrument a selected class, or null. */
    final Throwable failure() {
        return failure;
    }
}
