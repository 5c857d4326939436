package dev.lockscope.agent.boot;

import dev.lockscope.core.OptionValues;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The rate budget of the hooks' stack walks: at most {@code perSecond} events with a stack (park and unpark events
 * together) in each second of the run, checked before the commit that walks the stack, so a contention storm costs a
 * bounded amount. An event the budget refuses is not written; its thread counts it ({@link PerThread}'s dropped
 * counters), and the counts go out with every batch of summaries ({@link StackBudgetEvent}). The exact totals of the
 * table do not depend on it ({@link LockSummaryEvent}).
 *
 * <p>Concurrency: the budget of the current second is one word ({@link #state}: the second's number and the
 * events granted in it), but a thread takes grants from it in batches of up to {@value #MAX_BATCH} and spends them
 * from its own {@link PerThread}, so the shared word is written at most once per batch, and never once a second's
 * budget is spent (a refused event only reads it). A thread's unspent grants lapse with their second, so at most
 * {@code perSecond} events are written in any second.
 */
public final class StackBudget {
    /** The grants of one second fit the low bits of {@link #state}: {@link OptionValues#MAX_STACK_BUDGET} at most. */
    private static final int GRANT_BITS = 24;
    private static final long GRANT_MASK = (1L << GRANT_BITS) - 1;
    private static final int MAX_BATCH = 16;
    private static final long SECOND = 1_000_000_000L;

    /** Events with a stack allowed a second; 0: no budget. */
    private static volatile long perSecond;
    /** Grants a thread takes at once: fewer for small budgets, so one thread cannot hold a second's budget idle. */
    private static volatile int batch = 1;
    /** The time seconds count from ({@code System.nanoTime()} at configuration), so second numbers are never negative. */
    private static volatile long origin = System.nanoTime();
    /** The current second's number (high bits) and the events granted in it (low {@value #GRANT_BITS} bits). */
    @SuppressWarnings("unused") // through STATE
    private static volatile long state;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findStaticVarHandle(StackBudget.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private StackBudget() {
    }

    /** Sets the budget, events with a stack a second (0: none), and starts its seconds now. */
    public static void setPerSecond(long events) {
        long limit = Math.max(0, Math.min(events, OptionValues.MAX_STACK_BUDGET));
        batch = (int) Math.max(1, Math.min(MAX_BATCH, limit / 256));
        origin = System.nanoTime();
        STATE.setVolatile(0L);
        perSecond = limit;
    }

    /**
     * Runs the grant, refusal and counting paths once with a budget of one, then sets back the budget in force: the
     * first call of a {@code VarHandle} access mode links it (and may load classes), which must not happen inside the
     * application's park.
     */
    static void warm() {
        long inForce = perSecond;
        setPerSecond(1);
        PerThread scratch = new PerThread(Thread.currentThread()); // not in PerThread.THREADS: its counts go nowhere
        long now = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            if (!take(scratch, now) && !take(scratch)) {
                scratch.parkDropped(1);
                scratch.unparkDropped();
            }
        }
        setPerSecond(inForce);
    }

    /** The events refused so far, every thread's: parks, the waiting they stood for (ns), unparks. */
    public static long[] refused() {
        return PerThread.droppedByBudget();
    }

    /** The budget in force: events with a stack a second, 0 for none. */
    public static long perSecond() {
        return perSecond;
    }

    /**
     * Whether the calling thread ({@code pt}'s own) may write one more event with a stack at {@code nowNanos}
     * ({@code System.nanoTime()}); false when this second's budget is spent.
     */
    static boolean take(PerThread pt, long nowNanos) {
        long limit = perSecond;
        if (limit == 0) {
            return true;
        }
        long second = Math.max(0, nowNanos - origin) / SECOND;
        if (pt.budgetSecond == second && pt.budgetGrants > 0) {
            pt.budgetGrants--;
            return true;
        }
        return claim(pt, second, limit);
    }

    /** {@link #take(PerThread, long)} now: the clock is read only while a budget is set. */
    static boolean take(PerThread pt) {
        return perSecond == 0 || take(pt, System.nanoTime());
    }

    /** A batch of grants from the shared word, or false when the second's budget is spent. */
    private static boolean claim(PerThread pt, long second, long limit) {
        for (;;) {
            long s = (long) STATE.getVolatile();
            long current = s >>> GRANT_BITS;
            // a thread whose clock read came before another's move to the next second counts in that next second
            long at = Math.max(current, second);
            long granted = at == current ? s & GRANT_MASK : 0;
            pt.budgetSecond = at;
            if (granted >= limit) {
                pt.budgetGrants = 0;
                return false; // spent: read, not written, so a storm's refusals share the word without moving it
            }
            long got = Math.min(batch, limit - granted);
            if (STATE.compareAndSet(s, (at << GRANT_BITS) | (granted + got))) {
                pt.budgetGrants = got - 1;
                return true;
            }
        }
    }
}
