package dev.lockscope.report.rules;

import dev.lockscope.core.EventNames;
import dev.lockscope.core.LockKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every rule, evaluated once per report; and the findings a report shows. */
public final class Rules {
    /** In order of importance when scores tie; the first one's result stands in when nothing else is shown. */
    public static final List<Rule> ALL = List.of(
            // the lock threads waited for longest, of any kind: the first thing to look at
            new MostWaitedLockRule("lock-bottleneck", List.of(EventNames.PARK, EventNames.LOCK_SUMMARY, EventNames.MONITOR_ENTER,
                    EventNames.MONITOR_WAIT),
                    lock -> true, "No contention in this recording: no thread waited for a lock that another thread held."),
            new MostWaitedLockRule("park-contention", List.of(EventNames.PARK, EventNames.LOCK_SUMMARY),
                    lock -> lock.kind() == LockKind.PARK, "No thread parked on a java.util.concurrent lock."),
            new MostWaitedLockRule("monitor-contention", List.of(EventNames.MONITOR_ENTER),
                    lock -> lock.kind() == LockKind.MONITOR, "No thread blocked on entering a monitor."),
            new CarrierStarvationRule(),
            new VirtualThreadPinningRule());

    private Rules() {
    }


    /** One result per rule, in {@link #ALL}'s order; a rule whose events are all missing is NA. */
    public static List<RuleResult> evaluate(RuleInput input, EventsSeen seen) {
        List<RuleResult> out = new ArrayList<>();
        for (Rule rule : ALL) {
            boolean any = rule.neededEvents().stream().anyMatch(seen::has);
            out.add(any ? rule.evaluate(input) : RuleResult.notEvaluated(rule.id(), rule.neededEvents()));
        }
        return out;
    }

    /**
     * The findings to show: results with a positive score, highest first, each subject once; when
     * there are none, the first rule's result (which says why).
     */
    public static List<RuleResult> findings(List<RuleResult> results) {
        List<RuleResult> scored = new ArrayList<>(results.stream().filter(r -> r.score() > 0).toList());
        scored.sort(Comparator.comparingDouble(RuleResult::score).reversed()); // stable: ties keep rule order
        Set<String> subjects = new HashSet<>();
        List<RuleResult> out = new ArrayList<>();
        for (RuleResult r : scored) {
            if (r.subject() == null || subjects.add(r.subject())) {
                out.add(r);
            }
        }
        return out.isEmpty() && !results.isEmpty() ? List.of(results.get(0)) : List.copyOf(out);
    }
}
