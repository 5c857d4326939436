package dev.lockscope.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 40: locks taken through one shared helper ({@link HelperLocksMain}: three ReentrantLocks, three monitors and
 * two of Jetty 12's AutoLocks, each through {@code hold(lock, ms)}) are a row each, named by the method that called
 * the helper, with the average hold the program measured itself; {@code lockscope report} opens with the exit table's
 * rows; and {@code lockscope whatif} predicts for each of them apart, named as the table names it.
 */
class HelperLockRowsIT {
    @TempDir
    Path dir;

    /** One row of a rendered table: its name (from the line under it when too long for the column), parks, avg hold. */
    record Row(String kind, String label, long parks, double avgHoldMs) {
    }

    private static final Pattern ROW = Pattern.compile(
            "^ {2}(\\d+)\\s+(park|monitor|wait)\\s+(\\d+)\\s+\\d+\\s+[\\d.]+\\s+([\\d.]+)\\s+[\\d.]+ {0,2}(.*)$");

    static List<Row> rows(String table) {
        List<String> lines = table.lines().toList();
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = ROW.matcher(lines.get(i));
            if (m.matches()) {
                String label = m.group(5).isBlank() && i + 1 < lines.size() ? lines.get(i + 1).strip() : m.group(5).strip();
                out.add(new Row(m.group(2), label, Long.parseLong(m.group(3)), Double.parseDouble(m.group(4))));
            }
        }
        return out;
    }

    @Test
    void eachLockTakenThroughTheHelperIsARowOfItsCallerWithItsOwnHoldTime() throws Exception {
        Path jfr = dir.resolve("helper.jfr");
        // Jetty's jar from the test's own class path (Maven's copy of jetty-util 12)
        String jetty = Path.of(org.eclipse.jetty.util.thread.AutoLock.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        Proc app = Proc.run(dir, 180, List.of(Proc.JAVA, "-javaagent:" + Proc.AGENT_JAR + "=file=" + jfr + ",report=full",
                "-cp", Proc.TEST_CLASSES + java.io.File.pathSeparator + jetty, HelperLocksMain.class.getName(), "4"));
        assertThat(app.exitCode()).as("stderr:\n%s", app.err()).isZero();
        Map<String, Double> truth = new HashMap<>();
        for (String line : app.out().lines().toList()) {
            String[] parts = line.split(" ");
            if (parts.length == 3 && parts[0].equals("truth")) {
                truth.put(parts[1], Double.parseDouble(parts[2]));
            }
        }
        assertThat(truth).hasSize(8);
        String err = app.err();
        String exitTable = err.substring(err.indexOf("lockscope: lock contention at JVM exit"));
        List<Row> exit = rows(exitTable);
        Map<String, Double> held = new HashMap<>();
        for (Map.Entry<String, Double> t : truth.entrySet()) {
            String method = t.getKey();
            String cls = method.startsWith("monitor") ? "Object" : "ReentrantLock"; // AutoLock wraps a ReentrantLock
            List<Row> named = exit.stream().filter(r -> r.label().startsWith(cls + " at HelperLocksMain." + method + ":")).toList();
            assertThat(named).as("the row of %s in\n%s", method, exitTable).hasSize(1);
            // The table's average hold is the time a waiter was parked over the parks (docs/reading-the-report.md):
            // each hand-off's wake-up counts as holding, up to about half a millisecond on a loaded 2-core machine
            assertThat(named.get(0).avgHoldMs()).as("%s's average hold in\n%s", method, exitTable)
                    .isCloseTo(t.getValue(), within(0.1 * t.getValue() + 0.5));
            held.put(method, named.get(0).avgHoldMs());
        }
        assertThat(List.of(held.get("lockTen"), held.get("lockTwenty"), held.get("lockFifty"))).as(exitTable).isSorted();
        assertThat(List.of(held.get("monitorThirty"), held.get("monitorSixty"), held.get("monitorOneTwenty")))
                .as(exitTable).isSorted();
        assertThat(List.of(held.get("autoFifteen"), held.get("autoForty"))).as(exitTable).isSorted();
        assertThat(exit).noneMatch(r -> r.label().contains("HelperLocksMain.hold") || r.label().contains("AutoLock"));

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString());
        assertThat(report.exitCode()).as("report stderr: %s", report.err()).isZero();
        List<Row> reported = rows(report.out());
        assertThat(reported.subList(0, Math.min(reported.size(), 8))).extracting(Row::kind, Row::label, Row::parks)
                .as("report:\n%s\nexit:\n%s", report.out(), exitTable)
                .isEqualTo(exit.subList(0, Math.min(exit.size(), 8)).stream()
                        .map(r -> org.assertj.core.groups.Tuple.tuple(r.kind(), r.label(), r.parks())).toList());

        // what-if: a prediction of its own for each lock, named by its row
        Proc whatif = Proc.lockscope(dir, 120, "whatif", jfr.toString(), "--format", "json");
        assertThat(whatif.exitCode()).as("whatif stderr: %s", whatif.err()).isZero();
        Map<String, String> predictedLocks = new HashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode p : new com.fasterxml.jackson.databind.ObjectMapper().readTree(whatif.out())
                .get("whatWouldHelp")) {
            predictedLocks.put(p.get("row").asText(), p.get("lock").asText());
        }
        for (String method : truth.keySet()) {
            List<String> rows = predictedLocks.keySet().stream().filter(r -> r.contains("HelperLocksMain." + method + ":")).toList();
            assertThat(rows).as("the prediction for %s in\n%s", method, whatif.out()).hasSize(1);
        }
        assertThat(predictedLocks.values()).as("one lock each").doesNotHaveDuplicates();
    }
}
