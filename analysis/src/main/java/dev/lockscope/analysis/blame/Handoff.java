package dev.lockscope.analysis.blame;

/**
 * The lock changed hands: {@code cause} held it until {@code releaseNanos}; from then until
 * {@code takenNanos} nobody is known to hold it (the woken successor is still waking up).
 */
record Handoff(long releaseNanos, long takenNanos, Cause cause) {
}
