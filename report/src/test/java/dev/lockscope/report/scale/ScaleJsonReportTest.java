package dev.lockscope.report.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScaleJsonReportTest {
    @Test
    void contractFields() throws Exception {
        JsonNode root = new ObjectMapper().readTree(ScaleJsonReport.render(SweepFixture.result(), SweepFixture.context()));
        JsonNode points = root.get("points");
        assertThat(points).hasSize(5);
        JsonNode four = points.get(2);
        assertThat(four.get("threads").asInt()).isEqualTo(4);
        assertThat(four.get("cpus").asInt()).isEqualTo(2);
        assertThat(four.get("throughput").asDouble()).isEqualTo(300.0);
        assertThat(four.get("speedup").asDouble()).isEqualTo(3.0);
        assertThat(four.get("efficiency").asDouble()).isEqualTo(0.75);
        assertThat(four.get("recording").asText()).isEqualTo("/tmp/sweep/t4-c2.jfr");
        JsonNode failed = points.get(4);
        assertThat(failed.get("throughput").isNull()).isTrue();
        assertThat(failed.get("recording").isNull()).isTrue();
        assertThat(failed.get("failures").get(0).asText()).isEqualTo("exit code 3");

        assertThat(root.get("knee").get("threads").asInt()).isEqualTo(4);
        assertThat(root.get("knee").get("cpus").asInt()).isEqualTo(2);
        assertThat(root.get("peak").get("threads").asInt()).isEqualTo(8);

        JsonNode top = root.get("locks").get(0);
        assertThat(top.get("className").asText()).isEqualTo("java.util.Hashtable");
        assertThat(top.get("layer").asText()).isEqualTo("JDK");
        assertThat(top.get("ownerFrames").get(1).asText()).isEqualTo("com.shop.Report.render:30");
        assertThat(top.get("ownerMethod").asText()).isEqualTo("com.shop.Report.render:30");
        assertThat(top.get("threadTimeNanos")).hasSize(5);
        assertThat(top.get("threadTimeNanos").get(3).asLong()).isEqualTo(5_600_000_000L);
        assertThat(root.get("firstBottleneckLayer").asText()).isEqualTo("JDK");
        assertThat(root.get("layers").get(2).get("growingLocks").get(0).asInt()).isEqualTo(1);
        assertThat(root.get("notes").get(0).asText()).isEqualTo("asked for 4 CPUs, this machine has 2");
    }
}
