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
 * Instruments {@code java.lang.VirtualThread.runContinuation()}, for two independent purposes.
 *
 * <p>Carriers (agent option {@code carriers}, JDK 21+): {@code dev.lockscope.agent.boot.CarrierMounts}
 * is called before {@code mount()} and after each {@code unmount()}, so that the recording says which
 * virtual thread ran on which carrier when (bottle graphs split a carrier's running time by it).
 *
 * <p>Monitors (JDK 24+): a virtual thread
 * blocked on monitor enter (unmounted since JEP 491, with no {@code jdk.JavaMonitorEnter}) is recorded
 * by {@code dev.lockscope.agent.boot.VirtualThreadHooks}: after each {@code unmount()} (never before
 * it: there the current thread is still the virtual thread, see VirtualThreadHooks), after each
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
    /** The first JDK with virtual threads (JEP 444). */
    static final int FIRST_CARRIERS_JDK = 21;
    private static final String HOOKS = "dev/lockscope/agent/boot/VirtualThreadHooks";
    private static final String MOUNT_HOOKS = "dev/lockscope/agent/boot/CarrierMounts";

    private final boolean monitors;
    private final boolean carriers;

    VirtualThreadTransformer(boolean monitors, boolean carriers) {
        this.monitors = monitors;
        this.carriers = carriers;
    }

    /**
     * Instruments VirtualThread when this JDK needs it: its monitor path on JDK 24+, its mounts when
     * {@code carriers} is asked for on JDK 21+. Each part is applied only when the class has every call
     * and field it relies on; otherwise that part is left out and named.
     *
     * @return one line for the user for each part that cannot be recorded, else null
     */
    static String install(Instrumentation inst, Module hooksModule, boolean carriers) {
        int feature = Runtime.version().feature();
        boolean monitors = feature >= FIRST_JDK;
        carriers = carriers && feature >= FIRST_CARRIERS_JDK;
        if (!monitors && !carriers) {
            return null; // JDK 21-23 pin: the JVM's own jdk.JavaMonitorEnter covers virtual threads
        }
        StringBuilder problems = new StringBuilder();
        try {
            Class<?> virtualThread = Class.forName("java.lang.VirtualThread");
            byte[] original = originalBytes(virtualThread);
            String monitorShape = monitors ? Shape.of(original).monitorProblem() : null;
            String carrierShape = carriers ? Shape.of(original).mountProblem() : null;
            if (monitorShape != null) {
                problems.append("virtual threads blocked on monitors are not recorded on this JDK (").append(monitorShape).append(')');
                monitors = false;
            }
            if (carrierShape != null) {
                problems.append(problems.length() > 0 ? "; " : "")
                        .append("which virtual thread ran on which carrier is not recorded on this JDK (").append(carrierShape).append(')');
                carriers = false;
            }
            if (!monitors && !carriers) {
                return problems.toString();
            }
            String monitorProblem = null;
            if (monitors) {
                // the hooks call Continuation.getStackTrace() and the package-private ThreadSnapshot
                inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.vm", Set.of(hooksModule)),
                        Map.of("jdk.internal.vm", Set.of(hooksModule)), Set.of(), Map.of());
                monitorProblem = dev.lockscope.agent.boot.VirtualThreadHooks.activate();
            }
            if (carriers) {
                dev.lockscope.agent.boot.CarrierMounts.activate();
            }
            VirtualThreadTransformer transformer = new VirtualThreadTransformer(monitors, carriers);
            inst.addTransformer(transformer, true);
            inst.retransformClasses(virtualThread);
            if (transformer.failure() != null) {
                deactivateAll();
                return "virtual threads are not instrumented on this JDK (" + transformer.failure().getMessage() + ")";
            }
            if (monitorProblem != null) {
                problems.append(problems.length() > 0 ? "; " : "")
                        .append("virtual threads blocked on monitors are recorded without the monitor's class (").append(monitorProblem).append(')');
            }
            return problems.length() == 0 ? null : problems.toString();
        } catch (Throwable t) {
            deactivateAll();
            return "virtual threads are not instrumented (" + t + ")";
        }
    }

    private static void deactivateAll() {
        try {
            dev.lockscope.agent.boot.VirtualThreadHooks.deactivate();
            dev.lockscope.agent.boot.CarrierMounts.deactivate();
            dev.lockscope.agent.boot.EventCommitter.stop();
        } catch (Throwable ignored) {
            // the hooks may not even be loaded
        }
    }

    /** The class file as the JDK has it, from java.base's resources (before any agent's transformation). */
    private static byte[] originalBytes(Class<?> c) throws java.io.IOException {
        try (java.io.InputStream in = Object.class.getModule().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            if (in == null) {
                throw new java.io.IOException("no class file for " + c.getName());
            }
            return in.readAllBytes();
        }
    }

    @Override
    boolean selects(String internalName, boolean redefining) {
        return VIRTUAL_THREAD.equals(internalName);
    }

    @Override
    byte[] instrument(String internalName, byte[] bytes) {
        return instrument(bytes, monitors, carriers);
    }

    /** Both parts: the monitor path (JDK 24+) only. Kept for the tests of each JDK's class. */
    static byte[] instrument(byte[] bytes) {
        return instrument(bytes, true, false);
    }

    /** @throws IllegalStateException naming what this JDK's VirtualThread lacks for a part asked for */
    static byte[] instrument(byte[] bytes, boolean monitors, boolean carriers) {
        Shape shape = Shape.of(bytes);
        String problem = monitors ? shape.monitorProblem() : null;
        if (problem == null && carriers) {
            problem = shape.mountProblem();
        }
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                return name.equals("runContinuation") && desc.equals("()V")
                        ? new RunContinuationAdvice(mv, monitors, carriers) : mv;
            }
        }, 0);
        return writer.toByteArray();
    }

    /** What a VirtualThread class file has of what the hooks rely on (read, not changed). */
    static final class Shape {
        boolean blockingConstant;
        boolean continuationField;
        boolean stateMethod;
        int mounts;
        int unmounts;
        int afterYields;
        int afterDones;

        static Shape of(byte[] bytes) {
            Shape found = new Shape();
            new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public org.objectweb.asm.FieldVisitor visitField(int access, String name, String desc, String signature, Object value) {
                    switch (name + " " + desc) {
                        case "BLOCKING I" -> found.blockingConstant = (access & Opcodes.ACC_STATIC) != 0;
                        case "cont Ljdk/internal/vm/Continuation;" -> found.continuationField = true;
                        default -> { }
                    }
                    return null;
                }

                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                    if (name.equals("state") && desc.equals("()I")) {
                        found.stateMethod = true;
                    }
                    if (!name.equals("runContinuation") || !desc.equals("()V")) {
                        return null;
                    }
                    return new MethodVisitor(Opcodes.ASM9) {
                        @Override
                        public void visitMethodInsn(int opcode, String owner, String mname, String mdesc, boolean itf) {
                            if (VIRTUAL_THREAD.equals(owner) && mdesc.equals("()V")) {
                                switch (mname) {
                                    case "mount" -> found.mounts++;
                                    case "unmount" -> found.unmounts++;
                                    case "afterYield" -> found.afterYields++;
                                    case "afterDone" -> found.afterDones++;
                                    default -> { }
                                }
                            }
                        }
                    };
                }
            }, 0);
            return found;
        }

        /** Null when the monitor hooks fit, else what is missing. */
        String monitorProblem() {
            StringBuilder missing = new StringBuilder();
            if (!blockingConstant) missing.append(" static field BLOCKING,");
            if (!continuationField) missing.append(" field cont,");
            if (!stateMethod) missing.append(" method state(),");
            mountCalls(missing);
            if (afterYields == 0) missing.append(" afterYield() calls in runContinuation,");
            if (afterDones == 0) missing.append(" afterDone() calls in runContinuation,");
            return problem(missing);
        }

        /** Null when the mount hooks fit (one mount() and the unmount() calls of runContinuation), else what is missing. */
        String mountProblem() {
            StringBuilder missing = new StringBuilder();
            mountCalls(missing);
            return problem(missing);
        }

        private void mountCalls(StringBuilder missing) {
            if (mounts != 1) missing.append(" one mount() call in runContinuation (found ").append(mounts).append("),");
            if (unmounts == 0) missing.append(" unmount() calls in runContinuation,");
        }

        private static String problem(StringBuilder missing) {
            return missing.length() == 0 ? null : "java.lang.VirtualThread of JDK " + Runtime.version()
                    + " lacks" + missing.substring(0, missing.length() - 1);
        }
    }

    private static final class RunContinuationAdvice extends MethodVisitor {
        private final boolean monitors;
        private final boolean carriers;

        RunContinuationAdvice(MethodVisitor mv, boolean monitors, boolean carriers) {
            super(Opcodes.ASM9, mv);
            this.monitors = monitors;
            this.carriers = carriers;
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean isInterface) {
            boolean onThis = VIRTUAL_THREAD.equals(owner) && desc.equals("()V");
            if (carriers && onThis && name.equals("mount")) {
                threadHook(MOUNT_HOOKS, "beforeMount"); // still on the carrier
            }
            super.visitMethodInsn(opcode, owner, name, desc, isInterface);
            if (!onThis) {
                return;
            }
            if (carriers && name.equals("unmount")) {
                threadHook(MOUNT_HOOKS, "afterUnmount"); // on the carrier again
            }
            if (monitors && name.equals("unmount")) {
                // VirtualThreadHooks.afterUnmount(this, state(), BLOCKING, cont), on the carrier
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitMethodInsn(Opcodes.INVOKEVIRTUAL, VIRTUAL_THREAD, "state", "()I", false);
                super.visitFieldInsn(Opcodes.GETSTATIC, VIRTUAL_THREAD, "BLOCKING", "I");
                super.visitVarInsn(Opcodes.ALOAD, 0);
                super.visitFieldInsn(Opcodes.GETFIELD, VIRTUAL_THREAD, "cont", "Ljdk/internal/vm/Continuation;");
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "afterUnmount",
                        "(Ljava/lang/Thread;IILjava/lang/Object;)V", false);
            } else if (monitors && name.equals("mount")) {
                threadHook(HOOKS, "afterMount");
            } else if (monitors && (name.equals("afterYield") || name.equals("afterDone"))) {
                threadHook(HOOKS, "afterYieldOrDone");
            }
        }

        /** {@code hooks.method(this)}: no branch, the operand stack as it was. */
        private void threadHook(String hooks, String method) {
            super.visitVarInsn(Opcodes.ALOAD, 0);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, hooks, method, "(Ljava/lang/Thread;)V", false);
        }
    }
}
