package dev.lockscope.sched;

/**
 * What an OS thread is doing from a transition on. Bottle graphs (Du Bois et al., §2) count only
 * {@link #RUNNING}; {@link #RUNNABLE} (preempted, waiting on a run queue) is reported apart because
 * it means the machine, not the program, limited parallelism.
 */
public enum ThreadState {
    /** Scheduled in on a CPU ("active" in the paper). */
    RUNNING('I'),
    /** Switched out while still runnable (perf {@code OUT preempt}). */
    RUNNABLE('P'),
    /** Switched out to wait (futex, sleep, I/O) or exited. */
    BLOCKED('O');

    private final char code;

    ThreadState(char code) {
        this.code = code;
    }

    /** One-letter code used in the .sched file. */
    public char code() {
        return code;
    }

    public static ThreadState ofCode(char c) {
        for (ThreadState s : values()) {
            if (s.code == c) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown thread state code '" + c + "'");
    }
}
