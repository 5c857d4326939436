package dev.lockscope.report.rules;

import dev.lockscope.core.LockKind;

import java.util.List;

/** The monitor ({@code synchronized}) threads blocked on entering longest. */
final class MonitorContentionRule implements Rule {
    @Override
    public String id() {
        return "monitor-contention";
    }

    @Override
    public List<String> neededEvents() {
        return List.of(EventsSeen.MONITOR_ENTER);
    }

    @Override
    public RuleResult evaluate(RuleInput input) {
        return LockSentence.mostWaited(id(), input, lock -> lock.kind() == LockKind.MONITOR,
                "No thread blocked on entering a monitor.");
    }
}
