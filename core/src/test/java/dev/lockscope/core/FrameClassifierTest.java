package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** One classifier of frames ({@link FrameClassifier}) and the one reader of a frame's text ({@link Frame#parse}). */
class FrameClassifierTest {
    @Test
    void theRecordersOwnCodeIsRuntimeEvenUnderTheJdksPackages() {
        assertThat(FrameClassifier.kindOf("jdk.jfr.internal.PlatformRecorder")).isEqualTo(FrameKind.RUNTIME);
        assertThat(FrameClassifier.kindOf("sun.net.httpserver.ServerImpl")).as("lockscope serves its metrics itself").isEqualTo(FrameKind.JDK);
        assertThat(FrameClassifier.kindOf("dev.lockscope.agent.boot.ParkHooks")).isEqualTo(FrameKind.RUNTIME);
        assertThat(FrameClassifier.kindOf("jdk.internal.misc.Unsafe")).isEqualTo(FrameKind.JDK);
        assertThat(FrameClassifier.kindOf("java.util.concurrent.locks.ReentrantLock")).isEqualTo(FrameKind.JDK);
        assertThat(FrameClassifier.kindOf("com.sun.net.httpserver.HttpServer")).isEqualTo(FrameKind.JDK);
    }

    @Test
    void jettysAutoLockIsALockWrapperButNotAClassWhoseNameStartsSo() {
        assertThat(FrameClassifier.kindOf("org.eclipse.jetty.util.thread.AutoLock")).isEqualTo(FrameKind.LOCK_WRAPPER);
        assertThat(FrameClassifier.kindOf("org.eclipse.jetty.util.thread.AutoLock$WithCondition")).isEqualTo(FrameKind.LOCK_WRAPPER);
        assertThat(FrameClassifier.kindOf("org.eclipse.jetty.util.thread.AutoLockFree")).isEqualTo(FrameKind.APPLICATION);
        assertThat(FrameClassifier.kindOf("com.shop.Orders")).isEqualTo(FrameKind.APPLICATION);
    }

    @Test
    void lockMachineryIsTheJdksLockCodeNotEveryJdkFrame() {
        assertThat(FrameClassifier.isLockMachinery(Frame.parse("java.util.concurrent.locks.LockSupport.park:211"))).isTrue();
        assertThat(FrameClassifier.isLockMachinery(Frame.parse("java.lang.Object.wait0"))).isTrue();
        assertThat(FrameClassifier.isLockMachinery(Frame.parse("java.util.concurrent.LinkedBlockingQueue.put:343"))).isFalse();
    }

    @Test
    void aFramesTextReadsBackIntoItsParts() {
        Frame f = Frame.parse("com.shop.Orders$Line.<init>:42");
        assertThat(f).isEqualTo(new Frame("com.shop.Orders$Line", "<init>", 42, FrameKind.APPLICATION));
        assertThat(f.toString()).isEqualTo("com.shop.Orders$Line.<init>:42");
        assertThat(f.withoutPackage()).isEqualTo("Orders$Line.<init>:42");
        assertThat(f.sourceFile()).isEqualTo("com/shop/Orders.java");
        Frame lambda = Frame.parse("App$$Lambda.0x000000001f086450.run");
        assertThat(lambda.className()).isEqualTo("App$$Lambda.0x000000001f086450");
        assertThat(lambda.line()).isNegative();
        assertThat(Frame.parse("main").function()).isEqualTo("main");
        assertThat(Frame.firstApplication(List.of("java.lang.Object.wait0", "org.eclipse.jetty.util.thread.AutoLock.lock:60",
                "com.shop.Orders.place:9"))).hasToString("com.shop.Orders.place:9");
    }

    @Test
    void aLockIsTheProfilersOwnOnlyWhenNoApplicationCodeAskedForIt() {
        assertThat(FrameClassifier.isProfilersOwn(java.util.List.of("java.lang.Object.wait:-1",
                "jdk.jfr.internal.PlatformRecorder.periodicTask:499", "java.lang.Thread.run:840"))).isTrue();
        assertThat(FrameClassifier.isProfilersOwn(java.util.List.of("java.lang.ref.ReferenceQueue.remove:155",
                "dev.lockscope.agent.boot.BlockerRegistry.run:90", "java.lang.Thread.run:840"))).isTrue();
        // deep mode's monitor hook sits innermost on the application's own stack
        assertThat(FrameClassifier.isProfilersOwn(java.util.List.of("dev.lockscope.agent.boot.DeepHooks.enter:120",
                "com.example.Table.lookup:42", "java.lang.Thread.run:840"))).isFalse();
        assertThat(FrameClassifier.isProfilersOwn(java.util.List.of("java.util.concurrent.locks.ReentrantLock.lock:322",
                "com.example.Cache.get:12"))).isFalse();
        assertThat(FrameClassifier.isProfilersOwn(java.util.List.of())).isFalse();
    }
}
