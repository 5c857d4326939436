package dev.lockscope.analysis.blame;

/** The lock changed hands: {@code cause} held it until {@code releaseNanos}. */
record Handoff(long releaseNanos, Cause cause) {
}
