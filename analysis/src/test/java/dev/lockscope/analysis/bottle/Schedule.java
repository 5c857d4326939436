package dev.lockscope.analysis.bottle;

import dev.lockscope.sched.SchedSource;
import dev.lockscope.sched.SchedTrace;
import dev.lockscope.sched.ThreadState;
import dev.lockscope.sched.Transition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A test schedule in the note's notation: steps "t_i: R_i" turned into transitions. */
final class Schedule {
    record Step(long t, Set<Integer> running) {
    }

    final List<Step> steps = new ArrayList<>();
    final Map<Integer, String> names = new HashMap<>();

    Schedule step(long t, String... threads) {
        Set<Integer> ids = new HashSet<>();
        for (String th : threads) {
            ids.add(id(th));
        }
        steps.add(new Step(t, ids));
        return this;
    }

    Schedule stepIds(long t, Set<Integer> ids) {
        for (int id : ids) {
            names.putIfAbsent(id, "t" + id);
        }
        steps.add(new Step(t, ids));
        return this;
    }

    int id(String name) {
        for (Map.Entry<Integer, String> e : names.entrySet()) {
            if (e.getValue().equals(name)) {
                return e.getKey();
            }
        }
        int id = 100 + names.size();
        names.put(id, name);
        return id;
    }

    long length() {
        return steps.stream().mapToLong(Step::t).sum();
    }

    List<Transition> transitions() {
        List<Transition> out = new ArrayList<>();
        Set<Integer> current = new HashSet<>();
        long now = 0;
        for (Step s : steps) {
            for (int id : current) {
                if (!s.running().contains(id)) {
                    out.add(new Transition(now, id, ThreadState.BLOCKED));
                }
            }
            for (int id : s.running()) {
                if (!current.contains(id)) {
                    out.add(new Transition(now, id, ThreadState.RUNNING));
                }
            }
            current = s.running();
            now += s.t();
        }
        for (int id : current) {
            out.add(new Transition(now, id, ThreadState.BLOCKED));
        }
        return out;
    }

    SchedTrace trace() {
        return new SchedTrace(SchedSource.PERF, null, 1, 64, 0, length(), names, transitions(), List.of());
    }

    BottleGraph graph(ThreadClassifier classifier) {
        return BottleGraphs.whole(trace(), classifier);
    }

    BottleGraph graph() {
        return graph(ThreadClassifier.defaults());
    }
}
