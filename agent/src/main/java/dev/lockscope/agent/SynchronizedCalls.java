package dev.lockscope.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deep mode's view of the JDK's own monitors: the JDK's classes are never instrumented, so a lock taken
 * inside a {@code synchronized} method of {@code Hashtable}, {@code Vector} or {@code StringBuffer}
 * (Guerin et al.'s "pure JCL" layer) would not be seen. In the selected classes, each call of such a method
 * becomes a call of a synthetic static method of the caller's class that takes the receiver's monitor
 * itself around the same call:
 * <pre>
 *   static R lockscope$caller$method(Hashtable t, args) {
 *       if (t.getClass() != Hashtable.class) return t.method(args);  // a subclass may not synchronize (Properties)
 *       synchronized (t) { return t.method(args); }                  // the JDK's own acquisition is then recursive
 *   }
 * </pre>
 * {@link DeepTransformer} does this first, then instruments that {@code monitorenter} and
 * {@code monitorexit} like any other, so the JDK lock gets deep mode's exact counts and hold times
 * at the caller's site (named {@code Caller.lockscope$caller$method:line}). The method synchronizes on
 * its receiver anyway, so the program's locking is unchanged but for the order of two recursive
 * acquisitions. Only calls whose static type is one of {@link #OWNERS} and whose method is a
 * {@code synchronized} instance method there are wrapped; interfaces are left alone.
 */
final class SynchronizedCalls {
    /** JDK classes whose public instance methods synchronize on the receiver. */
    static final Set<String> OWNERS = Set.of("java/util/Hashtable", "java/util/Vector", "java/util/Stack",
            "java/lang/StringBuffer");
    private static final Map<String, Boolean> SYNCHRONIZED = new ConcurrentHashMap<>();

    private SynchronizedCalls() {
    }

    /** The class with its calls of synchronized JDK methods wrapped, or null when it has none. */
    static byte[] wrap(byte[] bytes) {
        ClassNode cn = new ClassNode();
        new ClassReader(bytes).accept(cn, ClassReader.EXPAND_FRAMES);
        if ((cn.version & 0xFFFF) < Opcodes.V1_6 || (cn.access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_MODULE)) != 0) {
            return null;
        }
        List<MethodNode> wrappers = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        cn.methods.forEach(m -> names.add(m.name));
        for (MethodNode m : cn.methods) {
            int line = -1;
            for (AbstractInsnNode insn : m.instructions.toArray()) {
                if (insn instanceof LineNumberNode ln) {
                    line = ln.line;
                } else if (insn.getOpcode() == Opcodes.INVOKEVIRTUAL && insn instanceof MethodInsnNode call
                        && OWNERS.contains(call.owner) && isSynchronized(call.owner, call.name, call.desc)) {
                    String name = uniqueName("lockscope$" + m.name.replace("<", "").replace(">", "") + "$" + call.name, names);
                    MethodNode wrapper = wrapper(name, call, line);
                    wrappers.add(wrapper);
                    m.instructions.set(call, new MethodInsnNode(Opcodes.INVOKESTATIC, cn.name, name, wrapper.desc, false));
                }
            }
        }
        if (wrappers.isEmpty()) {
            return null;
        }
        cn.methods.addAll(wrappers);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(writer);
        return writer.toByteArray();
    }

    private static String uniqueName(String base, Set<String> taken) {
        String name = base;
        for (int i = 1; !taken.add(name); i++) {
            name = base + "$" + i;
        }
        return name;
    }

    /** Whether {@code owner.name desc} resolves to a synchronized instance method (reflection on the JDK class). */
    static boolean isSynchronized(String owner, String name, String desc) {
        return SYNCHRONIZED.computeIfAbsent(owner + "." + name + desc, k -> {
            try {
                for (Class<?> c = Class.forName(owner.replace('/', '.'), false, null); c != null; c = c.getSuperclass()) {
                    for (Method method : c.getDeclaredMethods()) {
                        if (method.getName().equals(name) && Type.getMethodDescriptor(method).equals(desc)) {
                            return Modifier.isSynchronized(method.getModifiers()) && !Modifier.isStatic(method.getModifiers());
                        }
                    }
                }
            } catch (ClassNotFoundException | LinkageError | SecurityException e) {
                // not a class we can judge: leave the call alone
            }
            return false;
        });
    }

    /** {@code static R name(Owner t, args)}: the call, under the receiver's monitor when it is exactly an Owner. */
    private static MethodNode wrapper(String name, MethodInsnNode call, int line) {
        Type[] args = Type.getArgumentTypes(call.desc);
        Type ret = Type.getReturnType(call.desc);
        Type[] params = new Type[args.length + 1];
        params[0] = Type.getObjectType(call.owner);
        System.arraycopy(args, 0, params, 1, args.length);
        MethodNode w = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name,
                Type.getMethodDescriptor(ret, params), null, null);
        Object[] locals = new Object[params.length];
        for (int i = 0; i < params.length; i++) {
            locals[i] = frameType(params[i]);
        }
        LabelNode first = new LabelNode(), locked = new LabelNode(), start = new LabelNode(), end = new LabelNode(),
                handler = new LabelNode();
        w.instructions.add(first);
        if (line > 0) {
            w.instructions.add(new LineNumberNode(line, first));
        }
        w.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        w.instructions.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, "java/lang/Object", "getClass", "()Ljava/lang/Class;", false));
        w.instructions.add(new LdcInsnNode(params[0]));
        w.instructions.add(new JumpInsnNode(Opcodes.IF_ACMPEQ, locked));
        call(w, params, call);
        w.instructions.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
        w.instructions.add(locked);
        w.instructions.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]));
        w.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        w.instructions.add(new InsnNode(Opcodes.MONITORENTER));
        w.instructions.add(start);
        call(w, params, call);
        w.instructions.add(end);
        // the result, if any, stays on the stack under the monitor's reference
        w.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        w.instructions.add(new InsnNode(Opcodes.MONITOREXIT));
        w.instructions.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
        w.instructions.add(handler);
        w.instructions.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 1, new Object[]{"java/lang/Throwable"}));
        w.instructions.add(new VarInsnNode(Opcodes.ALOAD, 0));
        w.instructions.add(new InsnNode(Opcodes.MONITOREXIT));
        w.instructions.add(new InsnNode(Opcodes.ATHROW));
        w.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
        return w;
    }

    /** The receiver and the arguments from the parameters, then the original call. */
    private static void call(MethodNode w, Type[] params, MethodInsnNode original) {
        int slot = 0;
        for (Type p : params) {
            w.instructions.add(new VarInsnNode(p.getOpcode(Opcodes.ILOAD), slot));
            slot += p.getSize();
        }
        w.instructions.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, original.owner, original.name, original.desc, false));
    }

    private static Object frameType(Type t) {
        return switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
            case Type.LONG -> Opcodes.LONG;
            case Type.FLOAT -> Opcodes.FLOAT;
            case Type.DOUBLE -> Opcodes.DOUBLE;
            default -> t.getInternalName();
        };
    }
}
