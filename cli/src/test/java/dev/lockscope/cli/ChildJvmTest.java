package dev.lockscope.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChildJvmTest {
    @Test
    void optionsWithSpacesAreQuotedForJavaToolOptions() {
        assertThat(ChildJvm.quoteForToolOptions("-javaagent:/a/agent.jar=file=/b/r.jfr")).isEqualTo("-javaagent:/a/agent.jar=file=/b/r.jfr");
        assertThat(ChildJvm.quoteForToolOptions("-javaagent:/my dir/a.jar=file=/b/r.jfr")).isEqualTo("'-javaagent:/my dir/a.jar=file=/b/r.jfr'");
        assertThat(ChildJvm.quoteForToolOptions("-javaagent:/it's here/a.jar")).isEqualTo("\"-javaagent:/it's here/a.jar\"");
        assertThatThrownBy(() -> ChildJvm.quoteForToolOptions("-javaagent:/it's \"here\"/a.jar")).isInstanceOf(UserError.class);
    }

    @Test
    void aNonJavaCommandGetsTheAgentInJavaToolOptionsAfterWhatWasThere() {
        ProcessBuilder pb = ChildJvm.withJvmOptions(List.of("mvn", "test"), List.of("-javaagent:/my dir/a.jar"));
        assertThat(pb.command()).containsExactly("mvn", "test");
        String inherited = System.getenv("JAVA_TOOL_OPTIONS");
        assertThat(pb.environment().get("JAVA_TOOL_OPTIONS"))
                .isEqualTo((inherited == null || inherited.isEmpty() ? "" : inherited + " ") + "'-javaagent:/my dir/a.jar'");
    }
}
