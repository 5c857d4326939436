package dev.lockscope.analysis.bottle;

/** Role of a thread, which decides its default group and its colour in the bottle graph. */
public enum ThreadKind {
    /** Garbage collector threads (GC Thread#, G1*, Z*, Shenandoah). */
    GC,
    /** Dynamic compiler threads (C1/C2 CompilerThread, JVMCI, code sweeper). */
    JIT,
    /** Other JVM service threads (VM Thread, Service Thread, Finalizer, the launcher thread, ...). */
    JVM,
    /** Application threads, including thread pools and groups given by the user. */
    APP
}
