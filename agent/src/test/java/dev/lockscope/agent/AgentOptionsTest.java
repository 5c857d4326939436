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
    void metricsContinuousAndSnapshotOptions() {
        AgentOptions o = AgentOptions.parse("metricsPort=9404,jmx,continuous,dump,since=5m,out=/tmp/s.jfr");
        assertThat(o.metricsPort).isEqualTo("9404");
        assertThat(AgentOptions.metricsAddress("9404").getHostString()).isEqualTo("127.0.0.1");
        assertThat(AgentOptions.metricsAddress("0.0.0.0:0").getPort()).isZero();
        assertThat(AgentOptions.metricsAddress("[::1]:9404").getAddress().isLoopbackAddress()).isTrue();
        assertThat(o.jmx).isTrue();
        assertThat(o.continuous).isTrue();
        assertThat(o.since).isEqualTo(Duration.ofMinutes(5));
        assertThat(o.dumpTo).isEqualTo(Path.of("/tmp/s.jfr"));
        assertThatThrownBy(() -> AgentOptions.parse("metricsPort=70000")).hasMessageContaining("metricsPort");
        assertThatThrownBy(() -> AgentOptions.parse("metricsPort=host:x")).hasMessageContaining("metricsPort");
    }

    @Test
    void everyOption() {
        AgentOptions o = AgentOptions.parse("file=/tmp/a.jfr,threshold=10us,collectionThreshold=3,printThreshold=100,"
                + "freeOnPrint,cpuSamples=off,maxBlockers=7,report=off,quiet,reply=/tmp/d.txt,dump,stop,newFile,maxSize=64m,maxAge=2h");
        assertThat(o.file).isEqualTo(Path.of("/tmp/a.jfr"));
        assertThat(o.threshold).isEqualTo(Duration.ofNanos(10_000));
        assertThat(o.collectionThreshold).isEqualTo(3);
        assertThat(o.printThreshold).isEqualTo(100);
        assertThat(o.freeOnPrint).isTrue();
        assertThat(o.cpuSamples).isNull();
        assertThat(o.maxBlockers).isEqualTo(7);
        assertThat(o.reportAtExit).isFalse();
        assertThat(o.quiet).isTrue();
        assertThat(o.replyTo).isEqualTo(Path.of("/tmp/d.txt"));
        assertThat(o.dump).isTrue();
        assertThat(o.stop).isTrue();
        assertThat(o.newFile).isTrue();
        assertThat(o.maxSizeBytes).isEqualTo(64L << 20);
        assertThat(o.maxAge).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void recordingIsCappedByDefault() {
        AgentOptions o = AgentOptions.parse("");
        assertThat(o.maxSizeBytes).isEqualTo(512L << 20);
        assertThat(o.maxAge).isEqualTo(Duration.ofDays(1));
        assertThat(AgentOptions.parse("maxSize=0,maxAge=0").maxSizeBytes).isZero();
    }

    @Test
    void mistakesAreOneLineMessages() {
        assertThatThrownBy(() -> AgentOptions.parse("bogus=1")).hasMessageStartingWith("unknown agent option 'bogus'");
        assertThatThrownBy(() -> AgentOptions.parse("threshold=soon")).hasMessageContaining("must be a duration");
        assertThatThrownBy(() -> AgentOptions.parse("printThreshold=-1")).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> AgentOptions.parse("threshold=-5ms")).hasMessage("agent option threshold must not be negative, not '-5ms'");
        assertThatThrownBy(() -> AgentOptions.parse("threshold=99999999999999s")).hasMessageContaining("between 0 and 1h");
        assertThatThrownBy(() -> AgentOptions.parse("maxBlockers=0")).hasMessageContaining("between 1 and 10000000");
        assertThat(AgentOptions.parse("maxBlockerMemory=2m").maxBlockerMemory).isEqualTo(2L << 20);
        assertThatThrownBy(() -> AgentOptions.parse("maxBlockerMemory=1k")).hasMessageContaining("maxBlockerMemory");
        assertThatThrownBy(() -> AgentOptions.parse("maxSize=10k")).hasMessageContaining("at least 1m");
        assertThatThrownBy(() -> AgentOptions.parse("file=")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> AgentOptions.parse("freeOnPrint=maybe")).hasMessageContaining("is a flag");
        assertThatThrownBy(() -> AgentOptions.parse("report=stdout")).hasMessageContaining("stderr, full or off");
    }

    @Test
    void delayReleaseIsOneMethodAndADuration() {
        AgentOptions o = AgentOptions.parse("delayRelease=app.Catalog.search:2ms");
        assertThat(o.delayReleaseSite).isEqualTo("app.Catalog.search");
        assertThat(o.delayReleaseNanos).isEqualTo(2_000_000);
        assertThat(AgentOptions.parse("delayRelease=app.Catalog.search:100ns").delayReleaseNanos).isEqualTo(100);
        assertThat(AgentOptions.parse("file=x.jfr").delayReleaseSite).isNull();
        for (String bad : new String[]{"delayRelease=search:2ms", "delayRelease=Catalog.search", "delayRelease=Catalog.:1ms",
                "delayRelease=Catalog.search:5s", "delayRelease=Catalog.search:0", "delayRelease=Catalog.search:99ns"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentOptions.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delayRelease");
        }
    }

    @Test
    void deepModeSelection() {
        AgentOptions o = AgentOptions.parse("deep=com.example.**:org.acme.*,deepExclude=com.example.gen.**");
        assertThat(o.deep.selects("com.example.Service")).isTrue();
        assertThat(o.deep.selects("com.example.gen.Parser")).isFalse();
        assertThat(o.deep.toString()).isEqualTo("com.example.**:org.acme.* !com.example.gen.**");
        assertThat(AgentOptions.parse(null).deep).isNull();
        assertThatThrownBy(() -> AgentOptions.parse("deepExclude=com.example.**"))
                .hasMessageContaining("deepExclude needs deep");
        assertThatThrownBy(() -> AgentOptions.parse("deep=com/example/**")).hasMessageContaining("may hold only");
    }
}
