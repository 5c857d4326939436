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

    /** Jetty's AutoLock, a lock table's Entry.unlock: wrappers right under the JDK's lock frames are hidden too. */
    @Test
    void hidesTheApplicationsLockWrappersRightBelowTheLockInternals() {
        List<String> frames = RecordingBuilder.chain(RecordingBuilder.UNLOCK, "org.eclipse.jetty.util.thread.AutoLock.close:88",
                "app.Shop.checkout:42", "app.Shop.run:7");
        assertThat(ChainView.FILTERED.method(frames)).isEqualTo("app.Shop.checkout");
        assertThat(ChainView.RAW.visible(frames)).contains("org.eclipse.jetty.util.thread.AutoLock.close:88");
        // a method named close with no lock frames above it is the application's own code
        List<String> own = List.of("app.Channel.close:9", "app.Shop.run:7");
        assertThat(ChainView.FILTERED.visible(own)).isEqualTo(own);
        // nothing but wrappers: the innermost of them stays
        assertThat(ChainView.FILTERED.method(RecordingBuilder.chain(RecordingBuilder.UNLOCK, "app.Lock.unlock:3")))
                .isEqualTo("app.Lock.unlock");
    }

    /** {@code --wrapper}: a program's lock helper named unlike a lock operation is hidden too, the defaults kept. */
    @Test
    void hidesTheUsersOwnWrappersBesideTheDefaults() {
        List<String> frames = RecordingBuilder.chain(RecordingBuilder.UNLOCK, "org.eclipse.jetty.util.thread.AutoLock.close:88",
                "app.Locks.withLock:12", "app.Shop.checkout:42", "app.Shop.run:7");
        assertThat(ChainView.FILTERED.method(frames)).isEqualTo("app.Locks.withLock");
        ChainView view = ChainView.FILTERED.withWrappers(java.util.regex.Pattern.compile("Locks\\.withLock"));
        assertThat(view.method(frames)).isEqualTo("app.Shop.checkout");
        assertThat(view.isRaw()).isFalse();
        // a monitor's chain has no lock frames on top: the user's wrapper is hidden there too
        assertThat(view.method(List.of("app.Locks.withLock:15", "app.Shop.checkout:42"))).isEqualTo("app.Shop.checkout");
        assertThat(view.visible(List.of("app.Channel.close:9", "app.Shop.run:7"))).containsExactly("app.Channel.close:9", "app.Shop.run:7");
        assertThat(ChainView.RAW.withWrappers(java.util.regex.Pattern.compile("Locks")).visible(frames)).isEqualTo(frames);
        assertThat(ChainView.FILTERED.withWrappers(null)).isSameAs(ChainView.FILTERED);
    }

    @Test
    void aspectsParseAndRejectUnknownNames() {
        assertThat(Aspect.parseList("owner-method, lock-class,waiter-method"))
                .containsExactly(Aspect.OWNER_METHOD, Aspect.LOCK_CLASS, Aspect.WAITER_METHOD);
        assertThatThrownBy(() -> Aspect.parseList("owner,lock")).hasMessageContaining("unknown aspect 'owner'")
                .hasMessageContaining("owner-method");
    }
}
