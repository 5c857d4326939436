package dev.lockscope.agent;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentOptionsTest {
    @Test
    void defaults() {
        AgentOptions o = AgentOptions.parse(null);
        assertThat(o.threshold).isEqualTo(Duration.ZERO);
        assertThat(o.collectionThreshold).isZero();
        assertThat(o.printThreshold).isZero();
        assertThat(o.freeOnPrint).isFalse();
        assertThat(o.cpuSamples).isEqualTo(Duration.ofMillis(20));
        assertThat(o.reportAtExit).isTrue();
        assertThat(o.file).isNull();
    }

    @Test
    void everyOption() {
        AgentOptions o = AgentOptions.parse("file=/tmp/a.jfr,threshold=10us,collectionThreshold=3,printThreshold=100,"
                + "freeOnPrint,cpuSamples=off,maxBlockers=7,report=off,quiet,dump=/tmp/d.txt,stop");
        assertThat(o.file).isEqualTo(Path.of("/tmp/a.jfr"));
        assertThat(o.threshold).isEqualTo(Duration.ofNanos(10_000));
        assertThat(o.collectionThreshold).isEqualTo(3);
        assertThat(o.printThreshold).isEqualTo(100);
        assertThat(o.freeOnPrint).isTrue();
        assertThat(o.cpuSamples).isNull();
        assertThat(o.maxBlockers).isEqualTo(7);
        assertThat(o.reportAtExit).isFalse();
        assertThat(o.quiet).isTrue();
        assertThat(o.dumpTo).isEqualTo(Path.of("/tmp/d.txt"));
        assertThat(o.stop).isTrue();
    }

    @Test
    void durations() {
        assertThat(AgentOptions.duration("t", "250ns")).isEqualTo(Duration.ofNanos(250));
        assertThat(AgentOptions.duration("t", "20ms")).isEqualTo(Duration.ofMillis(20));
        assertThat(AgentOptions.duration("t", "2s")).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void mistakesAreOneLineMessages() {
        assertThatThrownBy(() -> AgentOptions.parse("bogus=1")).hasMessageStartingWith("unknown agent option 'bogus'");
        assertThatThrownBy(() -> AgentOptions.parse("threshold=soon")).hasMessageContaining("must be a duration");
        assertThatThrownBy(() -> AgentOptions.parse("printThreshold=-1")).hasMessageContaining("non-negative integer");
        assertThatThrownBy(() -> AgentOptions.parse("file=")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> AgentOptions.parse("freeOnPrint=maybe")).hasMessageContaining("is a flag");
        assertThatThrownBy(() -> AgentOptions.parse("report=stdout")).hasMessageContaining("stderr or off");
    }
}
