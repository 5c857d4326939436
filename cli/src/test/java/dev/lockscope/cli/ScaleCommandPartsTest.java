package dev.lockscope.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pieces of `lockscope scale` that need no child process. */
class ScaleCommandPartsTest {
    @Test
    void placeholdersAreFilledInEveryWord() {
        assertThat(SweepRunner.fill(List.of("sh", "-c", "run --threads {threads} --cpus={cpus} -t {seconds}"), 8, 2,
                Duration.ofSeconds(20))).containsExactly("sh", "-c", "run --threads 8 --cpus=2 -t 20");
        assertThat(SweepRunner.fill(List.of("{seconds}"), 1, 1, Duration.ofMillis(1500))).containsExactly("1.500");
    }

    @Test
    void durations() {
        assertThat(ScaleCommand.parseDuration("20s", "--duration")).isEqualTo(Duration.ofSeconds(20));
        assertThat(ScaleCommand.parseDuration("500ms", "--duration")).isEqualTo(Duration.ofMillis(500));
        assertThat(ScaleCommand.parseDuration("2m", "--duration")).isEqualTo(Duration.ofMinutes(2));
        assertThat(ScaleCommand.parseDuration("1.5", "--duration")).isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> ScaleCommand.parseDuration("soon", "--duration")).isInstanceOf(UserError.class)
                .hasMessageStartingWith("--duration must be a duration");
        assertThatThrownBy(() -> ScaleCommand.parseDuration("0s", "--timeout")).isInstanceOf(UserError.class)
                .hasMessage("--timeout must be positive, not '0s'");
    }

    @Test
    void throughputIsTheLastMatch() {
        ThroughputPattern demo = new ThroughputPattern(ThroughputPattern.DEFAULT);
        assertThat(demo.find("warm-up\nthroughput: 12.5 ops/s\nthroughput: 475.500 ops/s (951 ops, 4 threads)\n"))
                .hasValue(475.5);
        assertThat(demo.find("throughput: 1.2e3 ops/s")).hasValue(1200.0);
        assertThat(demo.find("nothing here")).isEmpty();
        assertThat(new ThroughputPattern("(\\d+) req/s").find("done: 300 req/s")).hasValue(300.0);
        assertThat(new ThroughputPattern("\\d+(?= tps)").find("at 42 tps")).as("no group: whole match").hasValue(42.0);
        assertThatThrownBy(() -> new ThroughputPattern("(")).isInstanceOf(UserError.class)
                .hasMessageStartingWith("--throughput-regex is not a valid regular expression");
    }

    @Test
    void cpuListsAndTasksetArguments() {
        assertThat(CpuSet.parseList("0-3,8,10-11")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        CpuSet set = new CpuSet(CpuSet.parseList("2-5"));
        assertThat(set.count()).isEqualTo(4);
        assertThat(set.tasksetList(2)).isEqualTo("2,3");
        assertThat(set.tasksetList(9)).as("more than there are: all").isEqualTo("2,3,4,5");
        assertThat(CpuSet.ofThisProcess().count()).isPositive();
    }

    @Test
    void jvmOptionsGoAfterJavaOrIntoJavaToolOptions() {
        ProcessBuilder java = ChildJvm.withJvmOptions(List.of("/usr/bin/java", "-jar", "a.jar"), List.of("-Da=1", "-Db=2"));
        assertThat(java.command()).containsExactly("/usr/bin/java", "-Da=1", "-Db=2", "-jar", "a.jar");
        ProcessBuilder script = ChildJvm.withJvmOptions(List.of("./run.sh"), List.of("-Da=1", "-Db=2"));
        assertThat(script.command()).containsExactly("./run.sh");
        assertThat(script.environment().get("JAVA_TOOL_OPTIONS")).endsWith("-Da=1 -Db=2");
    }
}
