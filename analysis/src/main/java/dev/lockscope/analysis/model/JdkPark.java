package dev.lockscope.analysis.model;

import java.util.List;

/** {@code jdk.ThreadPark} (recorded only with the agent's {@code jdkPark} option or a JFR profile of the user's). */
public record JdkPark(ThreadRef thread, String parkedClass, long beginNanos, long endNanos, List<String> frames) {
}
