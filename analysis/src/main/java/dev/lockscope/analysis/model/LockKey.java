package dev.lockscope.analysis.model;

/**
 * A lock as the events of a recording name it, for analyses that look locks up at every event: its
 * class and its identity (a blocker's identity hash, a monitor's address). The class names come
 * interned from {@link RecordingReader}, so a key costs neither a string nor the hash of one per event.
 */
public record LockKey(String className, long identity) {
    @Override
    public boolean equals(Object o) {
        return o instanceof LockKey k && k.identity == identity && k.className.equals(className);
    }

    @Override
    public int hashCode() {
        return 31 * className.hashCode() + Long.hashCode(identity);
    }
}
