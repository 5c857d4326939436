package dev.lockscope.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;


/**
 * The what-if experiment's instrumentation (agent option {@code delayRelease=Class.method:DURATION}): in the
 * methods of that name, a call of {@code ReleaseDelay.beforeRelease()} just before every release of a lock,
 * while the thread still holds it: before each {@code monitorexit}, before each call of a no-argument
 * {@code unlock()} (a {@code java.util.concurrent} lock), and before each return of a {@code synchronized}
 * method. The call takes nothing from the stack and leaves nothing, so the frames stay valid. Registered
 * only when the option is given: without it nothing is instrumented and nothing runs. Kept apart from deep
 * mode's instrumentation, which may transform the same class after it.
 */
final class ReleaseDelayTransformer extends GuardedTransformer {
    private static final String HOOK = "dev/lockscope/agent/boot/ReleaseDelay";

    /** {@code Class.method}, the class with or without its package ({@code $} for a nested class). */
    private final String className;
    private final String methodName;
    private volatile boolean instrumented;

    ReleaseDelayTransformer(String classDotMethod) {
        int dot = classDotMethod.lastIndexOf('.');
        className = classDotMethod.substring(0, dot);
        methodName = classDotMethod.substring(dot + 1);
    }

    @Override
    boolean selects(String internalName, boolean redefining) {
        return !redefining && selects(internalName.replace('/', '.'));
    }

    @Override
    byte[] instrument(String internalName, byte[] bytes) {
        return instrument(bytes);
    }

    boolean selects(String dottedClass) {
        return dottedClass.equals(className) || dottedClass.endsWith("." + className) || dottedClass.endsWith("$" + className);
    }

    /** Whether a method of that name was found in a loaded class. */
    boolean instrumentedAny() {
        return instrumented;
    }

    /** The class with a delay before every release in the chosen methods, or null when it has none of them. */
    byte[] instrument(byte[] bytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, 0);
        boolean changed = false;
        for (MethodNode m : cn.methods) {
            if (m.name.equals(methodName) && (m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) {
                changed |= instrument(m);
            }
        }
        if (!changed) {
            return null;
        }
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(writer);
        instrumented = true;
        return writer.toByteArray();
    }

    private static boolean instrument(MethodNode m) {
        boolean synchronizedMethod = (m.access & Opcodes.ACC_SYNCHRONIZED) != 0;
        boolean changed = false;
        for (AbstractInsnNode insn : m.instructions.toArray()) {
            int op = insn.getOpcode();
            boolean release = op == Opcodes.MONITOREXIT
                    || (op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKEINTERFACE)
                    && ((MethodInsnNode) insn).name.equals("unlock") && ((MethodInsnNode) insn).desc.equals("()V")
                    || synchronizedMethod && op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
            if (release) {
                m.instructions.insertBefore(insn, new MethodInsnNode(Opcodes.INVOKESTATIC, HOOK, "beforeRelease", "()V", false));
                changed = true;
            }
        }
        return changed;
    }
}
