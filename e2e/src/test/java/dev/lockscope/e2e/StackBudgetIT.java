package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's stack budget on a lock storm: it writes at most the budget of events with a stack a second, counts
 * every park it refused, so that the storm lock's recorded parks and the refused ones add up to the exact table's
 * count, and every report says so: the agent's table at exit, the text and the JSON of {@code lockscope report}.
 */
class StackBudgetIT {
    private static final int BUDGET = 200;

    @TempDir
    Path dir;

    @Test
    void aStormPastTheBudgetWritesNoMoreAndCountsWhatItRefused() throws Exception {
        Path jfr = dir.resolve("storm.jfr");
        // the agent's own options (what `record --sample-below 0 --stack-budget N` passes), so that its table at exit
        // prints too
        Proc run = Proc.run(dir, 120, List.of(Proc.JAVA, "-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr
                + ",sampleBelow=0,stackBudget=" + BUDGET, "-cp", Proc.TEST_CLASSES, LockStorm.class.getName(), "3"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err().replaceAll("\\s+", " ")).as("the table at exit")
                .contains("the agent's stack budget (" + BUDGET + " events with a call chain a second) refused ");

        long stacked = 0;
        long stormParks = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        RecordedEvent budget = null;
        Map<Long, List<RecordedEvent>> summaries = new HashMap<>();
        try (RecordingFile f = new RecordingFile(jfr)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String name = e.getEventType().getName();
                if (name.equals("lockscope.Park") || name.equals("lockscope.Unpark")) {
                    stacked++;
                    first = Math.min(first, e.getEndTime().toEpochMilli());
                    last = Math.max(last, e.getEndTime().toEpochMilli());
                    if (name.equals("lockscope.Park") && e.getString("blockerClass").contains("ReentrantLock")) {
                        stormParks++;
                    }
                } else if (name.equals("lockscope.StackBudget")) {
                    if (budget == null || e.getLong("batch") >= budget.getLong("batch")) {
                        budget = e;
                    }
                } else if (name.equals("lockscope.LockSummary")) {
                    summaries.computeIfAbsent(e.getLong("batch"), k -> new java.util.ArrayList<>()).add(e);
                }
            }
        }
        assertThat(budget).as("the recording's stack budget event").isNotNull();
        assertThat(budget.getLong("perSecond")).isEqualTo(BUDGET);
        long dropped = budget.getLong("parksDropped");
        assertThat(dropped).as("parks refused").isPositive();
        assertThat(budget.getLong("parkNanosDropped")).as("their waiting").isPositive();
        // the budget's seconds need not line up with the events' first and last: one more second at most
        long seconds = (last - first) / 1000 + 2;
        assertThat(stacked).as("events with a stack in %d seconds", seconds).isLessThanOrEqualTo(BUDGET * seconds);

        List<RecordedEvent> latest = summaries.get(summaries.keySet().stream().max(Long::compare).orElseThrow());
        long stormTable = 0;
        long allTable = 0;
        for (RecordedEvent s : latest) {
            long ended = s.getLong("timesParked") - s.getInt("parkedNow");
            allTable += ended;
            if (s.getString("blockerClass").contains("ReentrantLock")) {
                stormTable += ended;
            }
        }
        assertThat(stormTable).as("the storm lock's parks in the table").isGreaterThan(10L * BUDGET);
        // every ended park of the storm lock is either recorded or refused; the refused count is the JVM's, so the
        // few parks on other blockers may add to it
        assertThat(stormParks + dropped).as("recorded %d + refused %d against the table's %d", stormParks, dropped, stormTable)
                .isBetween(stormTable, allTable);

        Proc text = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out().replaceAll("\\s+", " ")).contains("the agent's stack budget (" + BUDGET + " events with a call chain a second) refused "
                + dropped + " park events");
        Proc json = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode b = new ObjectMapper().readTree(json.out()).get("stackBudget");
        assertThat(b.get("perSecond").asLong()).isEqualTo(BUDGET);
        assertThat(b.get("parksDropped").asLong()).isEqualTo(dropped);
        assertThat(b.get("unparksDropped").asLong()).isEqualTo(budget.getLong("unparksDropped"));
    }
}
