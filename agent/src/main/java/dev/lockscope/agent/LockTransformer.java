package dev.lockscope.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.AdviceAdapter;


/**
 * Wraps {@code LockSupport.park(Object)}, {@code park()}, {@code parkNanos(Object, long)}, {@code parkUntil(Object, long)},
 * {@code parkNanos(long)} and {@code parkUntil(long)} (the last three count only under a current blocker),
 * and {@code unpark(Thread)} with calls to {@code dev.lockscope.agent.boot.ParkHooks}. Nothing else is
 * transformed: every wait on a {@code java.util.concurrent} lock is a park, and its owner is read at the park.
 *
 * <p>The injected code has no branches of its own, so existing stack map frames stay valid once
 * LocalVariablesSorter has added the token local to them; no frame computation is needed, which
 * would otherwise load classes from inside the transformer.
 */
final class LockTransformer extends GuardedTransformer {
    static final String LOCK_SUPPORT = "java/util/concurrent/locks/LockSupport";
    private static final String HOOKS = "dev/lockscope/agent/boot/ParkHooks";

    private volatile int transformedMethods;

    @Override
    boolean selects(String internalName, boolean redefining) {
        return LOCK_SUPPORT.equals(internalName);
    }

    int transformedMethods() {
        return transformedMethods;
    }

    @Override
    byte[] instrument(String className, byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        int[] count = {0};
        ClassVisitor visitor = new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                MethodVisitor advised = advise(className, mv, access, name, desc);
                if (advised != mv) {
                    count[0]++;
                }
                return advised;
            }
        };
        reader.accept(visitor, ClassReader.EXPAND_FRAMES);
        transformedMethods += count[0];
        return writer.toByteArray();
    }

    private static MethodVisitor advise(String owner, MethodVisitor mv, int access, String name, String desc) {
        if (LOCK_SUPPORT.equals(owner)) {
            switch (name + desc) {
                case "park(Ljava/lang/Object;)V":
                    return new ParkAdvice(mv, access, name, desc, Kind.PARK);
                case "park()V": // Condition.await parks here after LockSupport.setCurrentBlocker(condition)
                    return new ParkAdvice(mv, access, name, desc, Kind.PARK_CURRENT_BLOCKER);
                // JDK 21+'s LinkedTransferQueue and SynchronousQueue set the current blocker, then park timed
                case "parkNanos(J)V":
                    return new ParkAdvice(mv, access, name, desc, Kind.PARK_NANOS_CURRENT_BLOCKER);
                case "parkUntil(J)V":
                    return new ParkAdvice(mv, access, name, desc, Kind.PARK_UNTIL_CURRENT_BLOCKER);
                case "parkNanos(Ljava/lang/Object;J)V":
                    return new ParkAdvice(mv, access, name, desc, Kind.PARK_NANOS);
                case "parkUntil(Ljava/lang/Object;J)V":
                    return new ParkAdvice(mv, access, name, desc, Kind.PARK_UNTIL);
                case "unpark(Ljava/lang/Thread;)V":
                    return new ParkAdvice(mv, access, name, desc, Kind.UNPARK);
                default:
                    return mv;
            }
        }
        return mv;
    }

    enum Kind { PARK, PARK_CURRENT_BLOCKER, PARK_NANOS_CURRENT_BLOCKER, PARK_UNTIL_CURRENT_BLOCKER, PARK_NANOS, PARK_UNTIL,
        UNPARK }

    private static final class ParkAdvice extends AdviceAdapter {
        private final Kind kind;
        private int token;

        ParkAdvice(MethodVisitor mv, int access, String name, String desc, Kind kind) {
            super(Opcodes.ASM9, mv, access, name, desc);
            this.kind = kind;
        }

        @Override
        protected void onMethodEnter() {
            switch (kind) {
                case PARK -> {
                    mv.visitVarInsn(ALOAD, 0);
                    mv.visitInsn(LCONST_0);
                    mv.visitInsn(LCONST_0);
                    parkBegin();
                }
                case PARK_CURRENT_BLOCKER -> mv.visitMethodInsn(INVOKESTATIC, HOOKS, "parkBeginCurrentBlocker",
                        "()Ljava/lang/Object;", false);
                case PARK_NANOS_CURRENT_BLOCKER -> {
                    mv.visitVarInsn(LLOAD, 0);
                    mv.visitInsn(LCONST_0);
                    parkBeginCurrentBlocker();
                }
                case PARK_UNTIL_CURRENT_BLOCKER -> {
                    mv.visitInsn(LCONST_0);
                    mv.visitVarInsn(LLOAD, 0);
                    parkBeginCurrentBlocker();
                }
                case PARK_NANOS -> {
                    mv.visitVarInsn(ALOAD, 0);
                    mv.visitVarInsn(LLOAD, 1);
                    mv.visitInsn(LCONST_0);
                    parkBegin();
                }
                case PARK_UNTIL -> {
                    mv.visitVarInsn(ALOAD, 0);
                    mv.visitInsn(LCONST_0);
                    mv.visitVarInsn(LLOAD, 1);
                    parkBegin();
                }
                case UNPARK -> {
                    mv.visitVarInsn(ALOAD, 0);
                    mv.visitMethodInsn(INVOKESTATIC, HOOKS, "unparkBegin", "(Ljava/lang/Thread;)Ljava/lang/Object;", false);
                }
            }
            token = newLocal(Type.getType(Object.class));
            storeLocal(token);
        }

        private void parkBeginCurrentBlocker() {
            mv.visitMethodInsn(INVOKESTATIC, HOOKS, "parkBeginCurrentBlocker", "(JJ)Ljava/lang/Object;", false);
        }

        private void parkBegin() {
            mv.visitMethodInsn(INVOKESTATIC, HOOKS, "parkBegin", "(Ljava/lang/Object;JJ)Ljava/lang/Object;", false);
        }

        @Override
        protected void onMethodExit(int opcode) {
            switch (kind) {
                case PARK, PARK_CURRENT_BLOCKER, PARK_NANOS_CURRENT_BLOCKER, PARK_UNTIL_CURRENT_BLOCKER, PARK_NANOS, PARK_UNTIL -> {
                    loadLocal(token);
                    mv.visitMethodInsn(INVOKESTATIC, HOOKS, "parkEnd", "(Ljava/lang/Object;)V", false);
                }
                case UNPARK -> {
                    loadLocal(token);
                    mv.visitMethodInsn(INVOKESTATIC, HOOKS, "unparkEnd", "(Ljava/lang/Object;)V", false);
                }
            }
        }
    }
}
