package dev.lockscope.locks;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Negative controls: the litmus tests of {@link LockStress} over builds of the locks with one required fence
 * removed. Each must FAIL (observe the forbidden outcome) where the hardware can reorder what the fence
 * orders. On x86 (TSO) only store-&gt;load reordering is visible, so the controls of store-&gt;load fences are
 * caught here, and the contender-side controls (whose fence is a CAS: a locked instruction on x86 whatever
 * the Java access mode) cannot be; they are kept so that a run on AArch64 shows them.
 */
public final class NegativeControls {

    private NegativeControls() {
    }

    /** Tasuki lines 47-48 without the fence: a release store, then a plain-cost load of FLC. */
    static final class TasukiWithoutReleaseFence extends TasukiLock {
        @Override
        boolean releaseFlatAndTestFlc(long me) {
            TasukiLock.LOCKWORD.setRelease(this, 0L);
            return flcSet();
        }

        @Override
        void fenceAgainstFlatReleaser() {
            // no membarrier either: this is also the membarrier build with the contender's membarrier removed
        }
    }

    /** Asymmetric lock lines 23-24 without the fence: the owner's status store may pass its load of other. */
    static final class AsymmetricWithoutOwnerFence extends AsymmetricLock {
        @Override
        boolean ownerTryAcquire() {
            AsymmetricLock.OWNER_STATUS.setRelease(this, 1);
            if ((long) AsymmetricLock.OTHER.getAcquire(this) == 0L) {
                return true;
            }
            AsymmetricLock.OWNER_STATUS.setRelease(this, 0);
            return false;
        }

        @Override
        void fenceAgainstOwner() {
            // no membarrier either: this is also the membarrier build with the non-owner's membarrier removed
        }
    }

    /** Asymmetric tasuki lines 47-48 without the full fence between the release and the FLC load. */
    static final class AsymmetricTasukiWithoutReleaseFence extends AsymmetricTasukiLock {
        @Override
        boolean releaseFlatAndTestFlc(long me) {
            flat.releaseHeld(me);
            return flcSet();
        }

        @Override
        void fenceAgainstFlatReleaser() {
            // no membarrier either: this is also the membarrier build with the contender's membarrier removed
        }
    }

    /** Tasuki lines 20-21 with the FLC store weakened to a release store (the CAS stays a CAS). */
    static final class TasukiWithoutContenderFence extends TasukiLock {
        boolean weakMarkAndTry(long me) {
            BimodalLock.FLC.setRelease(this, 1);
            return TasukiLock.LOCKWORD.weakCompareAndSetPlain(this, 0L, me);
        }
    }

    /** Asymmetric non-owner (Fig. 6.5, lines 32-34) with its fence removed: a plain-mode CAS, an opaque load. */
    static final class AsymmetricWithoutOtherFence extends AsymmetricLock {
        boolean weakOtherTry(long me) {
            if (!AsymmetricLock.OTHER.weakCompareAndSetPlain(this, 0L, me)) {
                return false;
            }
            if ((int) AsymmetricLock.OWNER_STATUS.getOpaque(this) == 0) {
                return true;
            }
            AsymmetricLock.OTHER.setRelease(this, 0L);
            return false;
        }
    }

    /**
     * The contender's reordering that its fence forbids, done in program order: the flat CAS before the FLC
     * store. x86 never performs it for the code with the fence removed (its CAS is a full fence whatever the
     * access mode); this control shows that the litmus test catches it when it happens, here too.
     */
    static final class TasukiContenderReorderedLock extends TasukiLock {
        boolean tryThenMark(long me) {
            boolean acquired = TasukiLock.LOCKWORD.compareAndSet(this, 0L, me);
            BimodalLock.FLC.setVolatile(this, 1);
            return acquired;
        }
    }

    /** The asymmetric non-owner's reordering in program order: the ownerStatus load before the CAS. */
    static final class AsymmetricOtherReorderedLock extends AsymmetricLock {
        boolean loadThenClaim(long me) {
            boolean ownerOut = (int) AsymmetricLock.OWNER_STATUS.getVolatile(this) == 0;
            if (!AsymmetricLock.OTHER.compareAndSet(this, 0L, me)) {
                return false;
            }
            if (ownerOut) {
                return true;
            }
            AsymmetricLock.OTHER.setRelease(this, 0L);
            return false;
        }
    }

    /** The cancellation without its stop of the owner: the owner's in-flight reserved store can land after it. */
    static final class ReservationWithoutOwnerStopLock extends ReservationLock {
        @Override
        void stopOwnerOutsideUnsafeRegion(Thread owner) {
            // no stop: the canceller reads the word once more and hands over at once
        }
    }

    @JCStressTest
    @Description("Negative control of TasukiReleaseSeesContender: must observe the lost wake-up on x86")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up (caught: the fence is required)")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "woken or acquired")
    @State
    public static class TasukiReleaseWithoutFence {
        final TasukiLock lock = LockStress.heldFlatBySyntheticHolder(new TasukiWithoutReleaseFence());

        @Actor
        public void releaser(ZZ_Result r) {
            LockStress.releaseRace(lock, r);
        }

        @Actor
        public void contender(ZZ_Result r) {
            LockStress.contendRace(lock, r);
        }
    }

    @JCStressTest
    @Description("Negative control of AsymmetricTasukiReleaseSeesContender: must observe the lost wake-up on x86")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up (caught: the fence is required)")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "woken or acquired")
    @State
    public static class AsymmetricTasukiReleaseWithoutFence {
        final AsymmetricTasukiLock lock = LockStress.heldFlatByNonOwner(
                new AsymmetricTasukiWithoutReleaseFence());

        @Actor
        public void releaser(ZZ_Result r) {
            LockStress.releaseRace(lock, r);
        }

        @Actor
        public void contender(ZZ_Result r) {
            LockStress.contendRace(lock, r);
        }
    }

    @JCStressTest
    @Description("Negative control of AsymmetricOwnerAgainstOther: must observe both acquiring on x86")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "both acquired (caught: the fence is required)")
    @Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one acquired")
    @Outcome(id = "false, false", expect = ACCEPTABLE_INTERESTING, desc = "both backed off")
    @State
    public static class AsymmetricOwnerWithoutFence {
        final AsymmetricLock lock = LockStress.ownedBySyntheticOwner(new AsymmetricWithoutOwnerFence());

        @Actor
        public void owner(ZZ_Result r) {
            r.r1 = lock.ownerTryAcquire();
        }

        @Actor
        public void other(ZZ_Result r) {
            r.r2 = lock.otherTryAcquire(LockStress.CONTENDER);
        }
    }

    /** Expected NOT to be caught on x86: the weakened CAS is still a locked cmpxchg, a full fence there. */
    @JCStressTest
    @Description("Negative control of the contender side (lines 20-21): cannot fail on x86, see class comment")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up (only on hardware that reorders it)")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "woken or acquired")
    @State
    public static class TasukiContenderWithoutFence {
        final TasukiWithoutContenderFence lock = new TasukiWithoutContenderFence();

        {
            LockStress.heldFlatBySyntheticHolder(lock);
        }

        @Actor
        public void releaser(ZZ_Result r) {
            LockStress.releaseRace(lock, r);
        }

        @Actor
        public void contender(ZZ_Result r) {
            r.r2 = lock.weakMarkAndTry(LockStress.CONTENDER);
        }
    }

    /** Expected NOT to be caught on x86, like the contender-side control: the CAS is a locked cmpxchg there. */
    @JCStressTest
    @Description("Negative control of AsymmetricOwnerAgainstOther, non-owner side: cannot fail on x86")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "both acquired (only on hardware that reorders it)")
    @Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one acquired")
    @Outcome(id = "false, false", expect = ACCEPTABLE_INTERESTING, desc = "both backed off")
    @State
    public static class AsymmetricOtherWithoutFence {
        final AsymmetricWithoutOtherFence lock = LockStress.ownedBySyntheticOwner(new AsymmetricWithoutOtherFence());

        @Actor
        public void owner(ZZ_Result r) {
            r.r1 = lock.ownerTryAcquire();
        }

        @Actor
        public void other(ZZ_Result r) {
            r.r2 = lock.weakOtherTry(LockStress.CONTENDER);
        }
    }

    @JCStressTest
    @Description("Negative control of the contender side (lines 20-21), its reordering done in program order: must fail")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "lost wake-up (caught: the order is required)")
    @Outcome(id = {"true, false", "false, true", "true, true"}, expect = ACCEPTABLE, desc = "woken or acquired")
    @State
    public static class TasukiContenderReordered {
        final TasukiContenderReorderedLock lock = new TasukiContenderReorderedLock();

        {
            LockStress.heldFlatBySyntheticHolder(lock);
        }

        @Actor
        public void releaser(ZZ_Result r) {
            LockStress.releaseRace(lock, r);
        }

        @Actor
        public void contender(ZZ_Result r) {
            r.r2 = lock.tryThenMark(LockStress.CONTENDER);
        }
    }

    @JCStressTest
    @Description("Negative control of AsymmetricOwnerAgainstOther, non-owner side reordered in program order: must fail")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "both acquired (caught: the order is required)")
    @Outcome(id = {"true, false", "false, true"}, expect = ACCEPTABLE, desc = "one acquired")
    @Outcome(id = "false, false", expect = ACCEPTABLE_INTERESTING, desc = "both backed off")
    @State
    public static class AsymmetricOtherReordered {
        final AsymmetricOtherReorderedLock lock = LockStress.ownedBySyntheticOwner(new AsymmetricOtherReorderedLock());

        @Actor
        public void owner(ZZ_Result r) {
            r.r1 = lock.ownerTryAcquire();
        }

        @Actor
        public void other(ZZ_Result r) {
            r.r2 = lock.loadThenClaim(LockStress.CONTENDER);
        }
    }

    /**
     * Negative control of ReservationExclusion: the canceller does not stop the owner, so an owner between
     * its read (1) and store (2) overwrites the cancellation: a lost update, a hold handed to the base lock
     * that nobody releases (the actors' timed tryLock gives up instead of hanging), or an unlock of a lock
     * the owner no longer holds.
     */
    @JCStressTest
    @Description("Negative control of ReservationExclusion: cancellation without stopping the owner must lose exclusion")
    @Outcome(id = "6, 0", expect = ACCEPTABLE, desc = "every increment under the lock")
    @Outcome(expect = FORBIDDEN, desc = "lost update, a stuck hold or an illegal unlock (caught: the stop is required)")
    @State
    public static class ReservationWithoutOwnerStop {
        final ReservationLock lock = new ReservationWithoutOwnerStopLock();
        int value; // guarded by lock
        volatile int troubleA;
        volatile int troubleB;

        int incrementThrice() {
            for (int i = 0; i < 3; i++) {
                try {
                    if (!lock.tryLock(1, java.util.concurrent.TimeUnit.SECONDS)) {
                        return 1;
                    }
                    try {
                        value++;
                    } finally {
                        lock.unlock();
                    }
                } catch (InterruptedException | RuntimeException e) {
                    return 1;
                }
            }
            return 0;
        }

        @Actor
        public void a() {
            troubleA = incrementThrice();
        }

        @Actor
        public void b() {
            troubleB = incrementThrice();
        }

        @Arbiter
        public void count(II_Result r) {
            r.r1 = value;
            r.r2 = troubleA + troubleB;
        }
    }
}
