package dev.lockscope.analysis.model;

import java.util.List;

/** {@code jdk.ThreadPark}: in a recording JFR made with its own settings (the lockscope agent records parks as {@code lockscope.Park}). */
public record JdkPark(ThreadRef thread, String parkedClass, long beginNanos, long endNanos, List<String> frames) {
}
