package dev.lockscope.core;

/** How threads wait on a lock: parked on a java.util.concurrent blocker, or blocked entering a monitor. */
public enum LockKind {
    PARK("park"),
    MONITOR("monitor");

    private final String label;

    LockKind(String label) {
        this.label = label;
    }

    /** The name used in JSON and tables. */
    public String label() {
        return label;
    }
}
