package dev.lockscope.agent.boot;

import dev.lockscope.core.ParkTally;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The live park-contention record of one blocker object (seed 000 §3.5). Keyed weakly: the record
 * never keeps the application's blocker alive.
 */
public final class BlockerRecord {
    final WeakKey key;
    public final String className;
    public final int identityHash;
    /** Set once, by the thread whose park started collection (§3.7.1/§3.7.2). */
    volatile String firstThread;
    volatile String[] firstFrames;
    final AtomicReference<ParkTally> tally;

    BlockerRecord(Object blocker, long collectionThreshold) {
        this.identityHash = System.identityHashCode(blocker);
        this.key = new WeakKey(blocker, identityHash);
        this.className = blocker.getClass().getName();
        this.tally = new AtomicReference<>(ParkTally.empty(collectionThreshold));
    }

    public ParkTally tally() {
        return tally.get();
    }

    public String firstThread() {
        String t = firstThread;
        return t == null ? "?" : t;
    }

    public String[] firstFrames() {
        String[] f = firstFrames;
        return f == null ? new String[0] : f;
    }

    /** Whether the blocker has been garbage-collected. */
    public boolean isDead() {
        return key.get() == null;
    }

    /** Map key: identity of the referent, held weakly. */
    static final class WeakKey extends WeakReference<Object> {
        private final int hash;

        WeakKey(Object referent, int hash) {
            super(referent);
            this.hash = hash;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            Object mine = get();
            if (mine == null) {
                return false; // a dead key equals only itself, so it can still be removed
            }
            if (o instanceof WeakKey) {
                return ((WeakKey) o).get() == mine;
            }
            return o instanceof Lookup && ((Lookup) o).referent == mine;
        }
    }

    /** Short-lived strong key for lookups, so a lookup allocates no WeakReference. */
    static final class Lookup {
        final Object referent;

        Lookup(Object referent) {
            this.referent = referent;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(referent);
        }

        @Override
        public boolean equals(Object o) {
            if (o instanceof WeakKey) {
                return ((WeakKey) o).get() == referent;
            }
            return o instanceof Lookup && ((Lookup) o).referent == referent;
        }
    }
}
