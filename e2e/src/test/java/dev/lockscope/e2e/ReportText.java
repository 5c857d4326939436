package dev.lockscope.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13's bounds on the text report of a real application at defaults, shared by the tests that run
 * one ({@link RealLibrariesIT}, {@link VirtualThreadServerIT}): the report stays short, and its
 * findings lead with contention, no idle wait among the first three.
 */
final class ReportText {
    /** The text report at defaults has fewer lines than this. */
    static final int MAX_LINES = 200;

    /**
     * Where idle threads wait (the report's idle places: pool queues, selectors, schedulers, Jetty's idle and
     * reserved threads, termination and join waits): a finding whose lock or waiters name one leads with an idle
     * wait. Where the owner held the lock may be one ("blocked in ScheduledExecutorScheduler.schedule ... held
     * in ScheduledThreadPoolExecutor$DelayedWorkQueue.take": callers of schedule() waiting while the scheduler's
     * thread takes its next task, real contention a full run found second), so that part is not checked.
     */
    private static final List<String> IDLE_PLACES = List.of("ThreadPoolExecutor.getTask", "awaitTermination", "Thread.join",
            "SelectorImpl", "SelectorManager", "DelayedWorkQueue", "ForkJoinPool.awaitWork", "ReservedThread",
            "VirtualThreadPool", "ReferenceQueue", "TimerThread");

    private static final Pattern IDLE_WORD = Pattern.compile("(?i)\\bidle\\b");

    private ReportText() {
    }

    /** Asserts the report is under {@link #MAX_LINES} lines. */
    static void assertShort(String text) {
        assertThat(text.lines().count()).as(text).isLessThan(MAX_LINES);
    }

    /** The top findings, whitespace folded; asserts there is one and the first three are not idle waits. */
    static List<String> findings(String text) {
        Matcher section = Pattern.compile("top findings:\\n(.*?)(?:\\n\\n|\\z)", Pattern.DOTALL).matcher(text);
        assertThat(section.find()).as(text).isTrue();
        List<String> out = new ArrayList<>();
        for (String f : section.group(1).split("\\n  - ")) {
            out.add(f.replaceFirst("^  - ", "").replaceAll("\\s+", " ").trim());
        }
        assertThat(out).as(text).isNotEmpty();
        for (String f : out.subList(0, Math.min(3, out.size()))) {
            // the word, not a class named for it (Jetty's IdleTimeout is where a pinned virtual thread blocked)
            assertThat(f).as(text).doesNotContainPattern(IDLE_WORD);
            String waited = f.split("; (it was held in|its holders were in|its owner was seen in) ", 2)[0];
            for (String place : IDLE_PLACES) {
                assertThat(waited).as(text).doesNotContain(place);
            }
        }
        return out;
    }
}
