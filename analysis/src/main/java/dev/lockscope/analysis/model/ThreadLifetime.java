package dev.lockscope.analysis.model;

/** A thread's start and end as recorded by jdk.ThreadStart / jdk.ThreadEnd; OPEN when not seen. */
public record ThreadLifetime(ThreadRef thread, long startNanos, long endNanos) {
}
