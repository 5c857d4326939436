package dev.lockscope.analysis.scale;

import dev.lockscope.analysis.blame.ChainView;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LayerClassifierTest {
    private final LayerClassifier layers = new LayerClassifier(List.of("com.acme.platform"));

    @Test
    void framesByPackage() {
        assertThat(layers.classify("com.shop.Orders.place:42")).isEqualTo(Layer.APPLICATION);
        assertThat(layers.classify("org.springframework.web.Dispatcher.doDispatch:100")).isEqualTo(Layer.MIDDLEWARE);
        assertThat(layers.classify("com.acme.platform.Pool.borrow:9")).as("user prefix").isEqualTo(Layer.MIDDLEWARE);
        assertThat(layers.classify("com.acme.platformer.X.y:1")).as("prefix ends at a package").isEqualTo(Layer.APPLICATION);
        assertThat(layers.classify("java.util.Hashtable.get:385")).isEqualTo(Layer.JDK);
        assertThat(layers.classify("javax.swing.TimerQueue.sharedInstance:90")).isEqualTo(Layer.JDK);
        assertThat(layers.classify("sun.java2d.pipe.AAShapePipe.renderPath:160")).isEqualTo(Layer.JDK);
        assertThat(layers.classify("jdk.internal.misc.Unsafe.park")).as("no line: native").isEqualTo(Layer.NATIVE);
        assertThat(layers.classify("java.util.zip.Deflater.deflateBytesBytes")).isEqualTo(Layer.NATIVE);
        assertThat(LayerClassifier.defaults().classify("com.acme.platform.Pool.borrow:9")).isEqualTo(Layer.APPLICATION);
    }

    @Test
    void jvmThreadsByName() {
        assertThat(layers.classifyThread("GC Thread#0")).contains(Layer.JVM);
        assertThat(layers.classifyThread("C2 CompilerThread0")).contains(Layer.JVM);
        assertThat(layers.classifyThread("VM Thread")).contains(Layer.JVM);
        assertThat(layers.classifyThread("G1 Conc#0")).contains(Layer.JVM);
        assertThat(layers.classifyThread("worker-3")).isEmpty();
        assertThat(layers.classifyThread("main")).isEmpty();
    }

    @Test
    void lockMachineryIsSkippedToFindWhereTheLockIsTaken() {
        List<String> waiter = List.of("jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park:211",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:715",
                "java.util.concurrent.locks.ReentrantLock.lock:322", "java.util.concurrent.LinkedBlockingQueue.put:343",
                "com.shop.Jobs.submit:20");
        List<String> site = ChainView.FILTERED.visible(waiter);
        assertThat(site).first().isEqualTo("java.util.concurrent.LinkedBlockingQueue.put:343");
        assertThat(layers.classify(site.get(0))).isEqualTo(Layer.JDK);
        assertThat(layers.firstUserFrame(site)).contains("com.shop.Jobs.submit:20");
        assertThat(layers.firstUserFrame(List.of("java.lang.Thread.run:833"))).isEmpty();
    }

    @Test
    void layersAreOrderedTopDown() {
        assertThat(Layer.values()).containsExactly(Layer.APPLICATION, Layer.MIDDLEWARE, Layer.JDK, Layer.NATIVE,
                Layer.JVM, Layer.OS);
    }
}
