package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VirtualMonitorEntersTest {
    @Test
    void framesFieldIsOneFrameALine() {
        assertThat(VirtualMonitorEnters.frames("a.B.c:1\na.B.d:2")).containsExactly("a.B.c:1", "a.B.d:2");
        assertThat(VirtualMonitorEnters.frames(null)).isEmpty();
        assertThat(VirtualMonitorEnters.frames("")).isEmpty();
    }

    @Test
    void aMonitorWithoutItsClassIsItsSite() {
        List<String> frames = List.of("app.A.f:10", "app.A.g:20");
        assertThat(VirtualMonitorEnters.monitorClass("java.lang.Object", frames)).isEqualTo("java.lang.Object");
        assertThat(VirtualMonitorEnters.identity("java.lang.Object", -1, frames)).isEqualTo(0xffff_ffffL);
        // JDK 24: no class recorded, so one monitor per site
        assertThat(VirtualMonitorEnters.monitorClass(null, frames)).isEqualTo("(monitor entered at app.A.f:10)");
        assertThat(VirtualMonitorEnters.identity(null, 7, frames))
                .isEqualTo(VirtualMonitorEnters.identity(null, 9, List.of("app.A.f:10")))
                .isNotEqualTo(VirtualMonitorEnters.identity(null, 7, List.of("app.A.f:11")));
        assertThat(VirtualMonitorEnters.monitorClass(null, List.of())).isEqualTo("?");
    }
}
