package dev.lockscope.agent.boot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The park events' start and duration, set from the tally's own clock reads where JFR's clock is nanoTime minus a
 * constant ({@link JfrClock}), so a park reads the clock twice, not four times.
 */
public final class ParkEventTimes {
    /*
     * The fields JFR adds to every event class when it loads it ("startTime" and "duration", in its clock's
     * ticks), which begin() and end() set from two clock reads of their own. Where JFR's clock is nanoTime minus a
     * constant (JfrClock), the park hooks set them from the tally's clock reads instead: of the four clock reads a
     * park made, these two were each about 8% of the CPU samples of a park that returns at once
     * (scripts/profile-agent.sh --workload parkOwnBlocker; docs/agent-cost.md "One clock read per park end").
     * Null where a JDK names them otherwise; then JFR keeps reading its clock.
     */
    static final VarHandle PARK_START = jfrField(ParkEvent.class, "startTime");
    static final VarHandle PARK_DURATION = jfrField(ParkEvent.class, "duration");
    static final VarHandle IDLE_START = jfrField(IdleParkEvent.class, "startTime");
    static final VarHandle IDLE_DURATION = jfrField(IdleParkEvent.class, "duration");

    private static VarHandle jfrField(Class<?> eventClass, String name) {
        try {
            return MethodHandles.privateLookupIn(eventClass, MethodHandles.lookup()).findVarHandle(eventClass, name, long.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Once a recording with {@code lockscope.Park} enabled has started: finds whether JFR's clock is nanoTime minus a
     * constant ({@link JfrClock}), so that park events take their times from the tally's clock reads.
     *
     * @return whether they do
     */
    public static boolean calibrate() {
        try {
            ParkEvent sample = new ParkEvent();
            return PARK_START != null && PARK_DURATION != null && IDLE_START != null && IDLE_DURATION != null
                    && sample.isEnabled() && JfrClock.calibrate(JfrClock.readThrough(sample, PARK_START));
        } catch (Throwable t) {
            HookFailures.record(t);
            return false;
        }
    }

    /** Whether park events take their times from the tally's clock reads ({@link #calibrate}). */
    public static boolean fromTally() {
        return JfrClock.known();
    }

    private ParkEventTimes() {
    }
}
