package dev.lockscope.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * Instruments {@code java.lang.VirtualThread.runContinuation()} on JDK 24+ so that a virtual thread
 * blocked on monitor enter (unmounted since JEP 491, with no {@code jdk.JavaMonitorEnter}) is recorded
 * by {@code dev.lockscope.agent.boot.VirtualThreadHooks}: before each {@code unmount()}, after each
 * {@code afterYield()} and {@code afterDone()}, and after {@code mount()}. On JDK 21-23 a virtual thread blocked on a monitor
 * stays pinned to its carrier and the JVM records {@code jdk.JavaMonitorEnter}, so nothing is done.
 *
 * <p>The injected calls have no branches and leave the operand stack as they found it, so the
 * method's stack map frames stay valid. {@link #instrument} refuses a class in which any of the
 * expected calls, fields or constants is missing, so a JDK that changes this path is left
 * uninstrumented and named, never half-instrumented (VirtualThreadTransformerTest checks the JDK
 * running the build).
 */
final class VirtualThreadTransformer extends GuardedTransformer {
    static final String VIRTUAL_THREAD = "java/lang/VirtualThread";
    static final int FIRST_JDK = 24;
    private static final String HOOKS = "dev/lockscope/agent/boot/VirtualThreadHooks";

    /**
     * Instruments VirtualThread when this JDK needs it.
     *
     * @return one line for the user when virtual-thread monitor waits cannot be seen, else null
     */
    static String install(Instrumentation inst, Module hooksModule) {
        if (Runtime.version().feature() < FIRST_JDK) {
            return null; // pinned: the JVM's own jdk.JavaMonitorEnter covers virtual threads
        }
        try {
            Class<?> virtualThread = Class.forName("java.lang.VirtualThread");
            // the hooks call Continuation.getStackTrace() and the package-private ThreadSnapshot
            inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.vm", Set.of(hooksModule)),
                    Map.of("jdk.internal.vm", Set.of(hooksModule)), Set.of(), Map.of());
            String monitorProblem = dev.lockscope.agent.boot.VirtualThreadHooks.activate();
            VirtualThreadTransformer transformer = new VirtualThreadTransformer();
            inst.addTransformer(transformer, true);
            inst.retransformClasses(virtualThread);
            if (transformer.failure() != null) {
                dev.lockscope.agent.boot.VirtualThreadHooks.deactivate();
                return "virtual threads blocked on monitors are not recorded on this JDK (" + transformer.failure().getMessage() + ")";
            }
            return monitorProblem == null ? null
                    : "virtual threads blocked on monitors are recorded without the monitor's class (" + monitorProblem + ")";
        } catch (Throwable t) {
            try {
                dev.lockscope.agent.boot.VirtualThreadHooks.deactivate();
            } catch (Throwable ignored) {
                // the hooks may not even be loaded
            }
            return "virtual threads blocked on monitors are not recorded (" + t + ")";
        }
    }

    @Override
    boolean selects(String internalName, boolean redefining) {
        return VIRTUAL_THREAD.equals(internalName);
    }

    @Override
    byte[] instrument(String internalName, byte[] bytes) {
        return instrument(bytes);
    }

    /** @throws IllegalStateException naming what this JDK's VirtualThread lacks */
    static byte[] instrument(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        InjectionCount found = new InjectionCount();
        ClassVisitor visitor = new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public org.objectweb.asm.FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
                switch (name + " " + desc) {
                    case "BLOCKING I" -> found.blockingConstant = (access & Opcodes.ACC_STATIC) != 0;
                    case "cont Ljdk/internal/vm/Continuation;" -> found.continuationField = true;
                    case "carrierThread Ljava/lang/Thread;" -> found.carrierField = true;
                    default -> { }
                }
                return super.visitField(access, name, desc, signature, value);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                if (name.equals("state") && desc.equals("()I")) {
                    found.stateMethod = true;
                }
                return name.equals("runContinuation") && desc.equals("()V") ? new RunContinuationAdvice(mv, found) : mv;
            }
        };
        reader.accept(visitor, 0);
        found.check();
        return writer.toByteArray();
    }

    /** What {@link #instrument} found; every part must be there or the class is left alone. */
    static final class InjectionCount {
        boolean blockingConstant;
        boolean continuationField;
        boolean carrierField;
        boolean stateMethod;
        int mounts;
        int unmounts;
        int afterYields;
        int afterDones;

        void check() {
            StringBuilder missing = new StringBuilder();
            if (!blockingConstant) missing.append(" static field BLOCKING,");
            if (!continuationField) missing.append(" field cont,");
            if (!carrierField) missing.append(" field carrierThread,");
            if (!stateMethod) missing.append(" method state(),");
            if (mounts != 1) missing.append(" one mount() call in runContinuation (found ").append(mounts).append("),");
            if (unmounts == 0) missing.append(" unmount() calls in runContinuation,");
            if (afterYields == 0) missing.append(" afterYield() calls in runContinuation,");
            if (afterDones == 0) missing.append(" afterDone() calls in runContinuation,");
            if (missing.length() > 0) {
                throw new IllegalStateException("java.lang.VirtualThread of JDK " + Runtime.version()
                        + " lacks" + missing.substring(0, missing.length() - 1));
            }
        }
    }

    private static final class RunContinuationAdvice extends MethodVisitor {
        private final InjectionCount found;

        RunContinuationAdvice(MethodVisitor mv, InjectionCount found) {
            super(Opcodes.ASM9, mv);
            this.found = found;
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean isInterface) {
            boolean onThis = VIRTUAL_THREAD.equals(owner) && desc.equals("()V");
            if (onThis && name.equals("unmount")) {
                found.unmounts++;
                // beforeUnmount(this, state(), BLOCKING, carrierThread, cont)
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKEVIRTUAL, VIRTUAL_THREAD, "state", "()I", false);
                super.visitFieldInsn(Opcodes.GETSTATIC, VIRTUAL_THREAD, "BLOCKING", "I");
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitFieldInsn(Opcodes.GETFIELD, VIRTUAL_THREAD, "carrierThread", "Ljava/lang/Thread;");
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitFieldInsn(Opcodes.GETFIELD, VIRTUAL_THREAD, "cont", "Ljdk/internal/vm/Continuation;");
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "beforeUnmount",
                        "(Ljava/lang/Thread;IILjava/lang/Thread;Ljava/lang/Object;)V", false);
            }
            super.visitMethodInsn(opcode, owner, name, desc, isInterface);
            if (onThis && name.equals("mount")) {
                found.mounts++;
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "afterMount", "(Ljava/lang/Thread;)V", false);
            } else if (onThis && (name.equals("afterYield") || name.equals("afterDone"))) {
                if (name.equals("afterYield")) {
                    found.afterYields++;
                } else {
                    found.afterDones++;
                }
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "afterUnmounted", "(Ljava/lang/Thread;)V", false);
            }
        }
    }
}
