package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A profiled run prints only lockscope's own lines: no JVM warning (the boot jar beside the agent keeps
 * class-data sharing on, LockscopeAgent.appendBootJar), through {@code lockscope record} and a plain
 * {@code -javaagent}, on every JDK 17 and 25 this machine has besides the one running the tests.
 */
class NoJvmWarningIT {
    @TempDir
    Path dir;

    /** The profiled program: one contended-free lock, one line. */
    public static final class Hello {
        public static void main(String[] args) {
            java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
            lock.lock();
            lock.unlock();
            System.out.println("hello");
        }
    }

    /** The JVMs to profile: the tests' own, and JDK 17 and 25 where installed (scripts/test.sh's defaults). */
    private static Set<String> javas() {
        Set<String> out = new LinkedHashSet<>(List.of(Proc.JAVA));
        for (String home : List.of(System.getenv().getOrDefault("LOCKSCOPE_JDK17", "/usr/lib/jvm/java-17-openjdk-amd64"),
                System.getenv().getOrDefault("LOCKSCOPE_JDK25", "/usr/lib/jvm/temurin-25-jdk-amd64"))) {
            Path java = Path.of(home, "bin", "java");
            if (Files.isExecutable(java)) {
                out.add(java.toString());
            }
        }
        return out;
    }

    private static List<String> vmWarnings(String stderr) {
        return stderr.lines().filter(l -> l.contains("VM warning") || l.toLowerCase(java.util.Locale.ROOT).startsWith("warning")).toList();
    }

    @Test
    void recordPrintsNoJvmWarning() throws Exception {
        for (String java : javas()) {
            Path jfr = dir.resolve("record-" + Math.abs(java.hashCode()) + ".jfr");
            Proc p = Proc.lockscope(dir, 120, "record", "--no-html", "-o", jfr.toString(), "--",
                    java, "-cp", Proc.TEST_CLASSES, Hello.class.getName());
            assertThat(p.exitCode()).as(java + ": " + p.err()).isZero();
            assertThat(p.err()).as(java).contains("lockscope: recording lock contention");
            assertThat(vmWarnings(p.err())).as(java + ", stderr:\n" + p.err()).isEmpty();
        }
    }

    @Test
    void javaagentPrintsNoJvmWarning() throws Exception {
        for (String java : javas()) {
            Path jfr = dir.resolve("agent-" + Math.abs(java.hashCode()) + ".jfr");
            List<String> cmd = new ArrayList<>(List.of(java, "-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr,
                    "-cp", Proc.TEST_CLASSES, Hello.class.getName()));
            Proc p = Proc.run(dir, 120, cmd);
            assertThat(p.exitCode()).as(java + ": " + p.err()).isZero();
            assertThat(p.err()).as(java).contains("lockscope: recording lock contention");
            assertThat(vmWarnings(p.err())).as(java + ", stderr:\n" + p.err()).isEmpty();
        }
    }
}
