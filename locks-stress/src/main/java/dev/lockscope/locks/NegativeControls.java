package dev.lockscope.locks;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
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
    }

    /** Asymmetric tasuki lines 47-48 without the full fence between the release and the FLC load. */
    static final class AsymmetricTasukiWithoutReleaseFence extends AsymmetricTasukiLock {
        @Override
        boolean releaseFlatAndTestFlc(long me) {
            flat.releaseHeld(me);
            return flcSet();
        }
    }

    /** Tasuki lines 20-21 with the FLC store weakened to a release store (the CAS stays a CAS). */
    static final class TasukiWithoutContenderFence extends TasukiLock {
        boolean weakMarkAndTry(long me) {
            BimodalLock.FLC.setRelease(this, 1);
            return TasukiLock.LOCKWORD.weakCompareAndSetPlain(this, 0L, me);
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
}
