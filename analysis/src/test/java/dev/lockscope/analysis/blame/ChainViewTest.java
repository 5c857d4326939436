package dev.lockscope.analysis.blame;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChainViewTest {
    @Test
    void hidesLockInternalsAtTheTopUnlessRaw() {
        List<String> frames = RecordingBuilder.chain(RecordingBuilder.UNLOCK, "app.Shop.queryByName:42", "app.Shop.run:7");
        assertThat(ChainView.FILTERED.visible(frames)).containsExactly("app.Shop.queryByName:42", "app.Shop.run:7");
        assertThat(ChainView.FILTERED.method(frames)).isEqualTo("app.Shop.queryByName");
        assertThat(ChainView.RAW.visible(frames)).isEqualTo(frames);
        assertThat(ChainView.RAW.method(frames)).isEqualTo("java.util.concurrent.locks.LockSupport.unpark");
        assertThat(ChainView.FILTERED.method(List.of())).isEqualTo(ChainView.UNKNOWN);
    }

    @Test
    void aspectsParseAndRejectUnknownNames() {
        assertThat(Aspect.parseList("owner-method, lock-class,waiter-method"))
                .containsExactly(Aspect.OWNER_METHOD, Aspect.LOCK_CLASS, Aspect.WAITER_METHOD);
        assertThatThrownBy(() -> Aspect.parseList("owner,lock")).hasMessageContaining("unknown aspect 'owner'")
                .hasMessageContaining("owner-method");
    }
}
