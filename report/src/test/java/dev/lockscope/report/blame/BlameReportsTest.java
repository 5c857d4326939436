package dev.lockscope.report.blame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.blame.Cause;
import dev.lockscope.analysis.blame.Contention;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.blame.WaitRecord;
import dev.lockscope.analysis.model.ThreadRef;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BlameReportsTest {
    private static final ThreadRef WAITER = new ThreadRef(11, 1, "caller");
    private static final ThreadRef OWNER = new ThreadRef(12, 2, "searcher");
    private static final LockId LOCK = LockId.blocker("java.util.concurrent.locks.ReentrantLock$NonfairSync", 0xabc);
    private static final List<String> UNLOCK = List.of("java.util.concurrent.locks.LockSupport.unpark:177",
            "java.util.concurrent.locks.ReentrantLock.unlock:494", "app.Shop.queryByName:42", "app.Shop.run:7");

    private static BlameSummary summary(boolean raw) {
        BlameResult r = new BlameResult(List.of(
                new Contention(LOCK, WAITER, List.of("app.Shop.queryByArticleNo:30"),
                        new Cause(OWNER, UNLOCK, OwnerChain.EXACT), false, 1, 90_000_000L, 0, 90_000_000L),
                new Contention(LOCK, WAITER, List.of("app.Shop.queryByArticleNo:30"), Cause.UNKNOWN, false, 1, 10_000_000L,
                        90_000_000L, 10_000_000L)),
                List.of(new WaitRecord(LockId.monitor("app.Queue", 0x10), WAITER, List.of("java.lang.Object.wait:-1", "app.Queue.take:5"),
                        OWNER, List.of(), 1, 5_000_000L, 0, 0, 5_000_000L)));
        return BlameSummary.of(r, Aspect.DEFAULT, raw);
    }

    @Test
    void textShowsTheTreeWithSharesChainClassesAndWaits() {
        String text = BlameTextReport.render(summary(false));
        assertThat(text).contains("Owner blame: 100.0 ms of contention in 2 spans, grouped by lock > owner-method")
                .contains(" 100.00%     100.0 ms       2  java.util.concurrent.locks.ReentrantLock$NonfairSync@abc")
                .contains("  90.00%      90.0 ms       1    app.Shop.queryByName")
                .contains("  10.00%      10.0 ms       1    (unknown)")
                .contains("exact 90.00%").contains("unknown 10.00%")
                .contains("caller #11 in app.Queue.take").contains(" on app.Queue@10, notified by searcher #12")
                .endsWith(BlameTextReport.UNKNOWN_REASONS); // the tree shows (unknown): its reasons follow once
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
        assertThat(BlameTextReport.render(summary(true))).contains("java.util.concurrent.locks.LockSupport.unpark");
    }

    /** An owner known but never recorded while it held the lock: the explanation says how file I/O gets recorded. */
    @Test
    void anOwnerNotRecordedIsExplainedWithTheOptionThatRecordsFileIo() {
        BlameResult r = new BlameResult(List.of(new Contention(LockId.monitor("app.Journal", 0x20), WAITER,
                List.of("app.Journal.append:12"), new Cause(OWNER, List.of(), OwnerChain.NOT_RECORDED), false, 1,
                20_000_000L, 0, 20_000_000L)), List.of());
        String text = BlameTextReport.render(BlameSummary.of(r, Aspect.DEFAULT, false));
        assertThat(text).contains(OwnerChain.NOT_RECORDED.missingKey() + ": the owner thread is known")
                .contains("such as file I/O").contains("(`lockscope record --file-io` records it)");
        assertThat(text.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
    }

    @Test
    void topCutsEverySectionAndSaysHowManyItLeftOut() {
        String text = BlameTextReport.render(summary(false), 1);
        assertThat(text).contains("  90.00%      90.0 ms       1    app.Shop.queryByName")
                .doesNotContain("10.0 ms       1    (unknown)").contains("    (1 more, --top)");
    }

    @Test
    void jsonHasTheContractFields() throws Exception {
        JsonNode json = new ObjectMapper().readTree(BlameJsonReport.render(summary(false)));
        JsonNode first = json.get("blame").get(0);
        assertThat(first.get("lockClass").asText()).isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync");
        assertThat(first.get("lockId").asText()).isEqualTo("abc");
        assertThat(first.get("waiterThread").asText()).isEqualTo("caller");
        assertThat(first.get("waiterFrames").get(0).asText()).isEqualTo("app.Shop.queryByArticleNo:30");
        assertThat(first.get("ownerThread").asText()).isEqualTo("searcher");
        assertThat(first.get("ownerFrames").get(0).asText()).isEqualTo("app.Shop.queryByName:42");
        assertThat(first.get("ownerChain").asText()).isEqualTo("exact");
        assertThat(first.get("nanos").asLong()).isEqualTo(90_000_000L);
        assertThat(json.get("blame").get(1).get("ownerThread").isNull()).isTrue();
        assertThat(json.get("tree").get("nanos").asLong()).isEqualTo(100_000_000L);
        assertThat(json.get("tree").get("children").get(0).get("children").get(0).get("key").asText()).isEqualTo("app.Shop.queryByName");
        assertThat(json.get("ownerChainShares").get(0).get("shares").get("exact").asDouble()).isEqualTo(0.9);
        assertThat(json.get("waits").get(0).get("notifierThread").asText()).isEqualTo("searcher");
        assertThat(BlameJsonReport.render(summary(false))).isEqualTo(BlameJsonReport.render(summary(false)));
    }
}
