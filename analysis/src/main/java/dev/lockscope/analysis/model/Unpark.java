package dev.lockscope.analysis.model;

import java.util.List;

/**
 * {@code lockscope.Unpark}: {@code thread} woke {@code targetTid}, parked on the given blocker.
 *
 * @param frames the unparking (releasing) thread's call chain, innermost first, hook frames removed
 */
public record Unpark(ThreadRef thread, long timeNanos, long seq, long targetTid, String targetName,
                     String blockerClass, int blockerHash, List<String> frames) {
}
