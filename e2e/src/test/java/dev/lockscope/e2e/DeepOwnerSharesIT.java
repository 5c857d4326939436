package dev.lockscope.e2e;

import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.blame.BlameTree;
import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.blame.Contention;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.model.RecordingReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 18's calibration in deep mode: one monitor held by two methods called back to back by every thread
 * ({@code blame-split-sync}, siteA 7 ms and siteB 3 ms), with the scenario's classes selected by {@code deep=}.
 * The agent records every release of the monitor while a thread waits for it, so the owner blame splits
 * each {@code jdk.JavaMonitorEnter} at the real holds ({@code deep-exact}) instead of estimating them from
 * samples: each method's share of the blamed waiting must be within 2 points of the share of the waiting
 * that overlapped its holds, as the workload timed them with {@code System.nanoTime} (a truth that a busy
 * machine stretches, but does not falsify: it is measured on the same run).
 */
class DeepOwnerSharesIT {
    private static final double POINTS = 0.02;
    private static final String[] SITES = {"siteA", "siteB"};

    @ParameterizedTest(name = "{0} threads")
    @CsvSource({"4", "16"})
    void ownerMethodSharesAreTheMeasuredHoldsWithinTwoPoints(int threads) throws Exception {
        String pattern = "blame-split-sync";
        ScenarioRunner.Run run = ScenarioRunner.run(pattern, 3, ScenarioRunner.workDir("deep-" + pattern + "-" + threads),
                List.of("--threads", Integer.toString(threads), "--split", "7:3", "--unit-ms", "1"),
                ",deep=dev.lockscope.demo.SplitHold*");
        BlameAnalysis analysis = new BlameAnalysis();
        RecordingReader.read(run.file(), analysis); // the one reader: deep releases included
        List<Contention> onTheMonitor = analysis.result().contentions().stream()
                .filter(c -> c.lock().lockClass().equals("java.lang.Object")).toList();
        long all = onTheMonitor.stream().mapToLong(Contention::nanos).sum();
        long exact = onTheMonitor.stream().filter(c -> c.cause().chain() == OwnerChain.DEEP_EXACT).mapToLong(Contention::nanos).sum();
        long gaps = onTheMonitor.stream().filter(c -> c.cause().chain() == OwnerChain.HANDOFF_GAP).mapToLong(Contention::nanos).sum();
        assertThat(all).as("waiting on the monitor").isPositive();
        // the rest: waits of threads that arrived in the probes' racy window with nobody else registered
        assertThat((double) (exact + gaps) / all).as("share of the waiting split at deep mode's releases").isGreaterThan(0.90);

        BlameNode byOwner = BlameTree.build(onTheMonitor, List.of(Aspect.OWNER_METHOD), ChainView.FILTERED);
        long waitedOn = 0;
        double blamed = 0;
        for (String site : SITES) {
            waitedOn += run.truth().total("waited-on-" + site);
            blamed += Blamed.share(byOwner, "SplitHoldScenario." + site);
        }
        StringBuilder rows = new StringBuilder();
        double[] truth = new double[SITES.length];
        double[] share = new double[SITES.length];
        for (int i = 0; i < SITES.length; i++) {
            truth[i] = (double) run.truth().total("waited-on-" + SITES[i]) / waitedOn;
            share[i] = Blamed.share(byOwner, "SplitHoldScenario." + SITES[i]) / blamed;
            rows.append(String.format(" %s truth %.4f blamed %.4f;", SITES[i], truth[i], share[i]));
        }
        System.out.printf("deep-owner-share %d threads:%s exact %.4f gaps %.4f%n", threads, rows, (double) exact / all,
                (double) gaps / all);
        for (int i = 0; i < SITES.length; i++) {
            assertThat(share[i]).as("%s's share of the blame (%s)", SITES[i], rows).isCloseTo(truth[i], within(POINTS));
        }
    }
}
