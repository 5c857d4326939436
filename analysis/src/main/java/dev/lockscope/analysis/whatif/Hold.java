package dev.lockscope.analysis.whatif;

/**
 * One thread's hold of one lock, as the replay uses it: it asked at {@code requestNanos}, got the lock at
 * {@code grantNanos} and let it go at {@code releaseNanos}.
 *
 * @param lock         index into {@link LockTrace#locks()}
 * @param site         the innermost application frame where it was acquired (or released), null if unknown
 * @param acquireSeen  the acquisition was recorded (the thread waited for it); otherwise it is estimated
 * @param releaseSeen  the release was recorded (a waiter was handed the lock); otherwise it is estimated
 */
public record Hold(int lock, long requestNanos, long grantNanos, long releaseNanos, String site,
                   boolean acquireSeen, boolean releaseSeen) {
    public long holdNanos() {
        return releaseNanos - grantNanos;
    }
}
