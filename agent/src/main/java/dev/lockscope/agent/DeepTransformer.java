package dev.lockscope.agent;

import dev.lockscope.agent.boot.DeepSites;
import dev.lockscope.agent.boot.DeepSummaries;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Deep mode's instrumentation of the classes {@link DeepSelection} selects, as they load:
 * <ul>
 *   <li>every {@code monitorenter}: {@code DUP; preEnter(o, site)} before, {@code postEnter()} after;</li>
 *   <li>every {@code monitorexit}, javac's exception-path copies included: {@code DUP; preExit(o)} before;</li>
 *   <li>a {@code synchronized} method becomes the same explicit pair: its flag is cleared, the body
 *       starts with the monitor's entry, every return is preceded by its exit, and a catch-all handler
 *       around the whole body exits and rethrows, so every return and throw path releases (as the JVM
 *       does for the flag). The receiver, or the class for a static method, is the monitor. This gives
 *       the probes a point before the acquisition, where the flag has none;</li>
 *   <li>calls of {@code Object.wait/notify/notifyAll} and of {@code lock/lockInterruptibly/tryLock/unlock}
 *       on {@code Lock}, {@code ReentrantLock}, the read-write lock's views and their subclasses ({@link LockClasses})
 *       are replaced by static
 *       calls of {@code DeepHooks} that count and then make the same call.</li>
 * </ul>
 * The inserted instructions have no branches of their own, so the frames of the original code stay
 * valid; the one new branch target, the handler, gets a frame holding only the monitor's local.
 * Classes older than Java 6 (class file 50) are left alone. Only classes loaded after the agent
 * started are instrumented (a synchronized method's flag cannot change on retransformation).
 */
final class DeepTransformer extends GuardedTransformer {
    private static final String HOOKS = "dev/lockscope/agent/boot/DeepHooks";
    private static final String LOCK = "java/util/concurrent/locks/Lock";

    private final DeepSelection selection;

    DeepTransformer(DeepSelection selection) {
        this.selection = selection;
    }

    @Override
    boolean selects(String internalName, boolean redefining) {
        return !redefining && selection.selects(internalName.replace('/', '.'));
    }

    @Override
    byte[] instrument(String internalName, byte[] bytes) {
        return instrument(null, internalName, bytes);
    }

    @Override
    byte[] instrument(ClassLoader loader, String internalName, byte[] bytes) {
        byte[] wrapped = SynchronizedCalls.wrap(bytes); // the JDK's monitors made explicit, then probed
        return instrument(wrapped != null ? wrapped : bytes, new LockClasses(loader));
    }

    /** The instrumented class, or null when it has nothing to instrument. */
    byte[] instrument(byte[] bytes, LockClasses locks) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, ClassReader.EXPAND_FRAMES);
        if ((cn.version & 0xFFFF) < Opcodes.V1_6 || (cn.access & Opcodes.ACC_MODULE) != 0) {
            return null;
        }
        boolean changed = false;
        for (MethodNode m : cn.methods) {
            if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) {
                changed |= instrument(cn.name, m, locks);
            }
        }
        if (!changed) {
            return null;
        }
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(writer);
        DeepSummaries.classInstrumented();
        return writer.toByteArray();
    }

    private static boolean instrument(String owner, MethodNode m, LockClasses locks) {
        boolean changed = false;
        int line = -1;
        int firstLine = -1;
        for (AbstractInsnNode insn : m.instructions.toArray()) {
            if (insn instanceof LineNumberNode ln) {
                line = ln.line;
                if (firstLine < 0) {
                    firstLine = line;
                }
                continue;
            }
            switch (insn.getOpcode()) {
                case Opcodes.MONITORENTER -> {
                    InsnList before = new InsnList();
                    before.add(new InsnNode(Opcodes.DUP));
                    before.add(site(owner, m, line, "monitorenter"));
                    before.add(hook("preEnter", "(Ljava/lang/Object;I)V"));
                    m.instructions.insertBefore(insn, before);
                    m.instructions.insert(insn, hook("postEnter", "()V"));
                    changed = true;
                }
                case Opcodes.MONITOREXIT -> {
                    InsnList before = new InsnList();
                    before.add(new InsnNode(Opcodes.DUP));
                    before.add(hook("preExit", "(Ljava/lang/Object;)V"));
                    m.instructions.insertBefore(insn, before);
                    changed = true;
                }
                case Opcodes.INVOKEVIRTUAL, Opcodes.INVOKEINTERFACE -> changed |= replaceCall(owner, m, (MethodInsnNode) insn, line, locks);
                default -> {
                }
            }
        }
        if ((m.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
            makeMonitorExplicit(owner, m, firstLine);
            changed = true;
        }
        return changed;
    }

    /** Object.wait/notify/notifyAll and the Lock calls: the same call through a counting static hook. */
    private static boolean replaceCall(String owner, MethodNode m, MethodInsnNode call, int line, LockClasses locks) {
        String hook = null;
        String desc = null;
        String kind = null;
        switch (call.name + call.desc) {
            case "wait()V" -> { hook = "waitOn"; desc = "(Ljava/lang/Object;I)V"; kind = "wait"; }
            case "wait(J)V" -> { hook = "waitOn"; desc = "(Ljava/lang/Object;JI)V"; kind = "wait"; }
            case "wait(JI)V" -> { hook = "waitOn"; desc = "(Ljava/lang/Object;JII)V"; kind = "wait"; }
            case "notify()V" -> { hook = "notifyOne"; desc = "(Ljava/lang/Object;I)V"; kind = "notify"; }
            case "notifyAll()V" -> { hook = "notifyEvery"; desc = "(Ljava/lang/Object;I)V"; kind = "notify"; }
            default -> {
            }
        }
        boolean lockCall = call.getOpcode() == Opcodes.INVOKEINTERFACE ? call.owner.equals(LOCK)
                : isLockMethod(call) && locks.isLock(call.owner); // the name first: a class file is read only for these
        if (hook == null && lockCall) {
            String l = "Ljava/util/concurrent/locks/Lock;";
            switch (call.name + call.desc) {
                case "lock()V" -> { hook = "lock"; desc = "(" + l + "I)V"; kind = "lock"; }
                case "lockInterruptibly()V" -> { hook = "lockInterruptibly"; desc = "(" + l + "I)V"; kind = "lock"; }
                case "tryLock()Z" -> { hook = "tryLock"; desc = "(" + l + "I)Z"; kind = "lock"; }
                case "tryLock(JLjava/util/concurrent/TimeUnit;)Z" -> {
                    hook = "tryLock"; desc = "(" + l + "JLjava/util/concurrent/TimeUnit;I)Z"; kind = "lock"; }
                case "unlock()V" -> { hook = "unlock"; desc = "(" + l + "I)V"; kind = "unlock"; }
                default -> {
                }
            }
        }
        if (hook == null) {
            return false;
        }
        m.instructions.insertBefore(call, site(owner, m, line, kind));
        m.instructions.set(call, hook(hook, desc));
        return true;
    }

    private static boolean isLockMethod(MethodInsnNode call) {
        return switch (call.name + call.desc) {
            case "lock()V", "lockInterruptibly()V", "tryLock()Z", "tryLock(JLjava/util/concurrent/TimeUnit;)Z", "unlock()V" -> true;
            default -> false;
        };
    }

    private static void makeMonitorExplicit(String owner, MethodNode m, int firstLine) {
        boolean isStatic = (m.access & Opcodes.ACC_STATIC) != 0;
        m.access &= ~Opcodes.ACC_SYNCHRONIZED;
        for (AbstractInsnNode insn : m.instructions.toArray()) {
            int op = insn.getOpcode();
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                m.instructions.insertBefore(insn, exit(owner, isStatic));
            }
        }
        InsnList enter = new InsnList();
        enter.add(monitor(owner, isStatic));
        enter.add(new InsnNode(Opcodes.DUP));
        enter.add(site(owner, m, firstLine, "synchronized-method"));
        enter.add(hook("preEnter", "(Ljava/lang/Object;I)V"));
        enter.add(new InsnNode(Opcodes.MONITORENTER));
        enter.add(hook("postEnter", "()V"));
        LabelNode start = new LabelNode();
        enter.add(start);
        m.instructions.insert(enter);
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        m.instructions.add(end);
        m.instructions.add(handler);
        Object[] locals = isStatic ? new Object[0] : new Object[]{owner};
        m.instructions.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 1, new Object[]{"java/lang/Throwable"}));
        m.instructions.add(exit(owner, isStatic));
        m.instructions.add(new InsnNode(Opcodes.ATHROW));
        // last in the table: the method's own handlers, inside the body, are tried first
        m.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
    }

    private static InsnList exit(String owner, boolean isStatic) {
        InsnList exit = new InsnList();
        exit.add(monitor(owner, isStatic));
        exit.add(new InsnNode(Opcodes.DUP));
        exit.add(hook("preExit", "(Ljava/lang/Object;)V"));
        exit.add(new InsnNode(Opcodes.MONITOREXIT));
        return exit;
    }

    private static AbstractInsnNode monitor(String owner, boolean isStatic) {
        return isStatic ? new LdcInsnNode(Type.getObjectType(owner)) : new VarInsnNode(Opcodes.ALOAD, 0);
    }

    private static AbstractInsnNode site(String owner, MethodNode m, int line, String kind) {
        String where = owner.replace('/', '.') + "." + m.name + (line > 0 ? ":" + line : "");
        return new LdcInsnNode(DeepSites.register(where, kind));
    }

    private static MethodInsnNode hook(String name, String desc) {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, HOOKS, name, desc, false);
    }
}
