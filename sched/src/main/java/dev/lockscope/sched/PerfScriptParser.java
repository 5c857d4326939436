package dev.lockscope.sched;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the text of {@code perf script --show-switch-events --show-task-events --ns} over a
 * {@code perf record -e dummy:u --switch-events -k mono -p PID} recording into {@link Transition}s.
 *
 * <p>Mapping: {@code SWITCH IN} → running; {@code SWITCH OUT} → blocked; {@code SWITCH OUT preempt}
 * → runnable; {@code FORK} of a thread → running (creation activates, Du Bois et al. §2.1); {@code EXIT}
 * → blocked (perf records no switch-out after exit). perf records no switch-in for a new thread's
 * first run and nothing for a thread that was running before the window: a thread whose first
 * record is an OUT or EXIT without an earlier FORK was therefore running since the window start.
 */
public final class PerfScriptParser {
    // "  GC Thread#0  4020 [-01]   699.860197975: PERF_RECORD_EXIT(4017:4020):(4016:4016)"
    private static final Pattern LINE = Pattern.compile(
            "^\\s*(.*?)\\s+(-?\\d+)\\s+\\[\\s*-?\\d+\\]\\s+(\\d+)\\.(\\d{1,9}):\\s+PERF_RECORD_([A-Z_]+)(.*)$");
    private static final Pattern PAIR = Pattern.compile("\\((\\d+):(\\d+)\\)");
    private static final Pattern COMM = Pattern.compile("^:\\s(.*):(\\d+)/(\\d+)\\s*$");

    private final long pid;
    private final long windowStart;
    private final long windowEnd;
    private final Map<Integer, String> names = new HashMap<>();
    private final List<Transition> transitions = new ArrayList<>();
    private final Set<Integer> seen = new HashSet<>();
    private final Set<Integer> forked = new HashSet<>();
    private long lastEventNanos = Long.MIN_VALUE;
    private long lost;

    /** Events before {@code windowStart} only set the initial state; later ones are clipped to the end. */
    public PerfScriptParser(long pid, long windowStart, long windowEnd) {
        this.pid = pid;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
    }

    public void parse(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            accept(line);
        }
    }

    void accept(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return;
        }
        int tid = Integer.parseInt(m.group(2));
        String frac = m.group(4);
        long nanos = Long.parseLong(m.group(3)) * 1_000_000_000L
                + Long.parseLong(frac) * (long) Math.pow(10, 9 - frac.length());
        String kind = m.group(5);
        String rest = m.group(6);
        switch (kind) {
            case "COMM" -> {
                Matcher c = COMM.matcher(rest);
                if (c.matches() && Long.parseLong(c.group(2)) == pid) {
                    names.put(Integer.parseInt(c.group(3)), c.group(1));
                }
            }
            case "SWITCH" -> {
                String dir = rest.trim();
                ThreadState s = dir.startsWith("IN") ? ThreadState.RUNNING
                        : dir.contains("preempt") ? ThreadState.RUNNABLE : ThreadState.BLOCKED;
                add(nanos, tid, s);
            }
            case "FORK" -> {
                Matcher p = PAIR.matcher(rest);
                if (p.find() && Long.parseLong(p.group(1)) == pid) {
                    int child = Integer.parseInt(p.group(2));
                    forked.add(child);
                    add(nanos, child, ThreadState.RUNNING);
                }
            }
            case "EXIT" -> {
                Matcher p = PAIR.matcher(rest);
                if (p.find() && Long.parseLong(p.group(1)) == pid) {
                    add(nanos, Integer.parseInt(p.group(2)), ThreadState.BLOCKED);
                }
            }
            case "LOST", "LOST_SAMPLES" -> lost++;
            default -> { }
        }
    }

    private void add(long nanos, int tid, ThreadState state) {
        if (nanos <= 0) {
            return; // synthesised records (time 0) describe threads, not events
        }
        if (seen.add(tid) && state != ThreadState.RUNNING && !forked.contains(tid)) {
            transitions.add(new Transition(windowStart, tid, ThreadState.RUNNING));
        }
        lastEventNanos = Math.max(lastEventNanos, nanos);
        transitions.add(new Transition(Math.min(Math.max(nanos, windowStart), windowEnd), tid, state));
    }

    /**
     * The trace. {@code runningAtStart}: threads in state R in /proc when recording began; those
     * with no record at all ran through the whole window.
     */
    public SchedTrace trace(int cpus, Set<Integer> runningAtStart, Map<Integer, String> procNames,
                            boolean processExited) {
        List<Transition> all = new ArrayList<>();
        for (int tid : runningAtStart) {
            if (!seen.contains(tid)) {
                all.add(new Transition(windowStart, tid, ThreadState.RUNNING));
            }
        }
        all.addAll(transitions);
        all.sort(java.util.Comparator.comparingLong(Transition::nanos));
        Map<Integer, String> allNames = new HashMap<>(procNames);
        allNames.putAll(names);
        long end = processExited && lastEventNanos > windowStart ? Math.min(lastEventNanos, windowEnd) : windowEnd;
        String reason = lost > 0 ? "perf lost " + lost + " batches of switch records (buffer overrun)" : null;
        return new SchedTrace(SchedSource.PERF, reason, pid, cpus, windowStart, end, allNames, all, List.of());
    }
}
