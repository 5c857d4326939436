package dev.lockscope.analysis.bottle;

/** What renderers need of a thread or group box. */
public interface Box {
    String name();

    ThreadKind kind();

    /** Height S (ns). */
    Rational share();

    /** Area A (ns). */
    Rational running();

    /** Width P. */
    Rational parallelism();

    long preemptedNanos();
}
