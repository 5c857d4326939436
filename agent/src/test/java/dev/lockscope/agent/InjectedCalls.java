package dev.lockscope.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;

/** The calls an instrumented class makes to a hook class, as {@code method->hook}, in class-file order. */
final class InjectedCalls {
    private InjectedCalls() {
    }

    static List<String> of(byte[] bytes, String hooksClass) {
        List<String> calls = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String mname, String mdesc, boolean itf) {
                        if (owner.equals(hooksClass)) {
                            calls.add(name + "->" + mname);
                        }
                    }
                };
            }
        }, 0);
        return calls;
    }
}
