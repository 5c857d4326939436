package dev.lockscope.report.rules;

import dev.lockscope.core.LockKind;

import java.util.List;

/** The java.util.concurrent blocker (ReentrantLock, Semaphore, ...) threads parked on longest. */
final class ParkContentionRule implements Rule {
    @Override
    public String id() {
        return "park-contention";
    }

    @Override
    public List<String> neededEvents() {
        return List.of(EventsSeen.PARK_END);
    }

    @Override
    public RuleResult evaluate(RuleInput input) {
        return LockSentence.mostWaited(id(), input, lock -> lock.kind() == LockKind.PARK,
                "No thread parked on a java.util.concurrent lock.");
    }
}
