package dev.lockscope.report.rules;

import java.util.List;

/** The lock threads waited for longest, of any kind: the first thing to look at. */
final class LockBottleneckRule implements Rule {
    @Override
    public String id() {
        return "lock-bottleneck";
    }

    @Override
    public List<String> neededEvents() {
        return List.of(EventsSeen.PARK_END, EventsSeen.MONITOR_ENTER);
    }

    @Override
    public RuleResult evaluate(RuleInput input) {
        return LockSentence.mostWaited(id(), input, lock -> true, "No thread waited for a lock in this recording.");
    }
}
