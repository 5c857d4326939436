package dev.lockscope.agent.boot;

import dev.lockscope.core.IdlePlaces;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.locks.AbstractOwnableSynchronizer;

/**
 * Turns the park hooks ({@link ParkHooks}) on and off. Everything they use is loaded, linked and compiled here, on
 * the agent's thread, before LockSupport is instrumented: a class first loaded from inside the application's park
 * would take class-loading locks there, and JFR instruments a newly loaded event class for milliseconds.
 */
public final class HookActivation {
    private HookActivation() {
    }

    /**
     * Loads every class the hooks use, then turns them on. Must run before LockSupport is
     * retransformed, so no class is first loaded from inside a park.
     *
     * @return null, or why the blocker owner cannot be read (then owners are recorded as unknown)
     */
    public static String activate() {
        String ownerProblem = null;
        try {
            ParkHooks.exclusiveOwner = MethodHandles.privateLookupIn(AbstractOwnableSynchronizer.class, MethodHandles.lookup())
                    .findVarHandle(AbstractOwnableSynchronizer.class, "exclusiveOwnerThread", Thread.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            ownerProblem = e.toString();
        }
        // Load, initialise and register every event class now: loading one from inside the
        // application's first unpark would take class-loading locks there, and JFR's instrumentation
        // of a newly loaded event class costs milliseconds on that thread.
        jdk.jfr.FlightRecorder.register(ParkEvent.class);
        jdk.jfr.FlightRecorder.register(IdleParkEvent.class);
        jdk.jfr.FlightRecorder.register(UnparkEvent.class);
        jdk.jfr.FlightRecorder.register(ConditionUnparkEvent.class);
        LockSummaries.register();
        new ParkEvent().isEnabled();
        new IdleParkEvent().isEnabled();
        IdlePlaces.ruleOf(java.util.List.of()); // loaded here, not in the first park that captures a stack
        new UnparkEvent().isEnabled();
        new ConditionUnparkEvent().isEnabled();
        // Run every path with a private blocker so the classes they use are linked and the paths
        // are compiled before the application's first park (events are not enabled yet).
        Object warm = new Object();
        ParkHooks.active = true;
        for (int i = 0; i < 5_000; i++) {
            ParkHooks.parkEnd(ParkHooks.parkBegin(warm, 1, 0));
        }
        ParkHooks.parkEnd(ParkHooks.parkBeginCurrentBlocker());
        ParkHooks.parkEnd(ParkHooks.parkBeginCurrentBlocker(1, 0));
        ParkHooks.unparkEnd(ParkHooks.unparkBegin(Thread.currentThread()));
        StackBudget.warm(); // its VarHandle calls link here, not in the first park it refuses
        LockSummaries.snapshot();
        BlockerRegistry.forget(warm);
        BlockerRegistry.removeDead();
        BlockerRegistry.startDropping();
        return ownerProblem;
    }

    public static void deactivate() {
        ParkHooks.active = false;
        BlockerRegistry.stopDropping();
    }

    public static boolean isActive() {
        return ParkHooks.active;
    }
}
