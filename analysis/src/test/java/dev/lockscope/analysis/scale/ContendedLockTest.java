package dev.lockscope.analysis.scale;

import dev.lockscope.core.LockKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ContendedLockTest {
    private static ContendedLock monitor(String className, String... waiterFrames) {
        return new ContendedLock(LockKind.MONITOR, className, waiterFrames[0], List.of(waiterFrames), List.of(), "waiter-site", 1, 1,
                List.of("worker-0"));
    }

    @Test
    void keyIsKindClassAndCallingMethodWithoutLine() {
        ContendedLock viaSize = monitor("java.util.Hashtable", "java.util.Hashtable.size:248", "com.shop.Cache.get:65");
        ContendedLock viaCompute = monitor("java.util.Hashtable", "java.util.Hashtable.computeIfAbsent:1137", "com.shop.Cache.get:66");
        assertThat(viaSize.key()).isEqualTo(viaCompute.key()).isEqualTo("monitor|java.util.Hashtable|com.shop.Cache.get");
        assertThat(monitor("java.util.Hashtable", "java.util.Hashtable.get:385", "com.shop.Report.render:3").key())
                .isNotEqualTo(viaSize.key());
        assertThat(monitor("java.lang.Object", "java.util.Hashtable.get:385").key())
                .as("no user frame: the site's method").isEqualTo("monitor|java.lang.Object|java.util.Hashtable.get");
    }
}
