package dev.lockscope.e2e;

import java.util.HashMap;
import java.util.Map;

/** The {@code truth <thread> <event> <epoch-nanos>} lines a demo scenario prints: what really happened when. */
final class TruthLog {
    private final Map<String, Long> firstByThreadAndEvent = new HashMap<>();
    private final Map<String, Long> totals = new HashMap<>();

    static TruthLog parse(String output) {
        TruthLog log = new TruthLog();
        for (String line : output.split("\\R")) {
            String[] f = line.trim().split(" ");
            if (f.length == 4 && f[0].equals("truth")) {
                log.firstByThreadAndEvent.putIfAbsent(f[1] + " " + f[2], Long.parseLong(f[3]));
            } else if (f.length == 3 && f[0].equals("truth-total")) {
                log.totals.put(f[1], Long.parseLong(f[2]));
            }
        }
        return log;
    }

    /** Epoch nanos of the thread's first such event. */
    long at(String thread, String event) {
        Long t = firstByThreadAndEvent.get(thread + " " + event);
        if (t == null) {
            throw new AssertionError("the scenario did not mark '" + event + "' in thread " + thread);
        }
        return t;
    }

    /** Each thread's first such event, epoch nanos by thread name. */
    Map<String, Long> all(String event) {
        Map<String, Long> out = new HashMap<>();
        firstByThreadAndEvent.forEach((key, t) -> {
            int space = key.lastIndexOf(' ');
            if (key.substring(space + 1).equals(event)) {
                out.put(key.substring(0, space), t);
            }
        });
        return out;
    }

    /** A total the scenario added up, in nanoseconds. */
    long total(String name) {
        Long t = totals.get(name);
        if (t == null) {
            throw new AssertionError("the scenario printed no total '" + name + "'");
        }
        return t;
    }

    /** Whether the event happened {@code ms} ± {@code slackMs} after the reference event. */
    boolean near(String fromThread, String fromEvent, String toThread, String toEvent, double ms, double slackMs) {
        return Math.abs(ms(fromThread, fromEvent, toThread, toEvent) - ms) <= slackMs;
    }

    /** Milliseconds from the first event to the second. */
    double ms(String fromThread, String fromEvent, String toThread, String toEvent) {
        return (at(toThread, toEvent) - at(fromThread, fromEvent)) / 1e6;
    }
}
