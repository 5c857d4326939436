package dev.lockscope.report.rules;


import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every rule, evaluated once per report; and the findings a report shows. */
public final class Rules {
    /** In order of importance when scores tie; the first one's result stands in when nothing else is shown. */
    public static final List<Rule> ALL = List.of(
            // every lock row threads waited for, by the share of wall time it cost: the first thing to look at
            new LockRowsRule(),
            new CarrierStarvationRule(),
            new VirtualThreadPinningRule());

    private Rules() {
    }


    /** Every rule's results, in {@link #ALL}'s order; a rule whose events are all missing is one NA result. */
    public static List<RuleResult> evaluate(RuleInput input, EventsSeen seen) {
        List<RuleResult> out = new ArrayList<>();
        for (Rule rule : ALL) {
            boolean any = rule.neededEvents().stream().anyMatch(seen::has);
            if (any) {
                out.addAll(rule.results(input, seen::has));
            } else {
                out.add(RuleResult.notEvaluated(rule.id(), rule.neededEvents()));
            }
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
