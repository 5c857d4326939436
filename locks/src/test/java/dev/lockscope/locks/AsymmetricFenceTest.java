package dev.lockscope.locks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which fence the locks use: the membarrier exactly where the JVM allows it (JDK 22+, native access enabled,
 * Linux x86_64/aarch64), the volatile form everywhere else. Surefire runs this class twice, once with
 * {@code --enable-native-access=ALL-UNNAMED} (the {@code membarrier} execution of locks/pom.xml).
 */
class AsymmetricFenceTest {

    @Test
    void usesMembarrierExactlyWhereTheJvmAllowsIt() throws Exception {
        boolean linux = System.getProperty("os.name").equals("Linux")
                && System.getProperty("os.arch").matches("amd64|x86_64|aarch64");
        boolean nativeAccess = Runtime.version().feature() >= 22
                && (boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(AsymmetricFence.class.getModule());
        if (linux && nativeAccess) {
            assertThat(AsymmetricFence.MODE).isEqualTo("membarrier");
            assertThat(AsymmetricFence.ENABLED).isTrue();
            for (int i = 0; i < 1_000; i++) {
                AsymmetricFence.heavy(); // returns 0 every time once registered, or throws
            }
        } else {
            assertThat(AsymmetricFence.ENABLED).isFalse();
            assertThat(AsymmetricFence.MODE).startsWith("volatile (");
        }
    }

    @Test
    void expectedModeMatchesWhatTheBuildAskedFor() {
        // The membarrier execution sets this property; there the JVM must really use membarrier on JDK 22+.
        String expected = System.getProperty("lockscope.locks.expectMembarrier");
        if (expected != null && Runtime.version().feature() >= 22 && System.getProperty("os.name").equals("Linux")) {
            assertThat(AsymmetricFence.MODE).isEqualTo("membarrier");
        }
    }
}
