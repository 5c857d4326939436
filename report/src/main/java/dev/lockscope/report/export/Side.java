package dev.lockscope.report.export;

/** Which call chain of a blame entry a stack export shows. */
public enum Side {
    /** the thread that waited: where it asked for the lock */
    waiter,
    /** the thread that held the lock meanwhile: where it held or released it */
    owner
}
