package dev.lockscope.analysis.blame;

/** Blame for the parks on one kind of blocker (seed 001 §4.3: one analyzer per blocker class). */
interface BlockerAnalyzer {
    void analyze(BlockerTrace trace, BlameCollector out);

    /** The analyzer for a blocker class. */
    static BlockerAnalyzer forClass(String blockerClass) {
        if (blockerClass.startsWith("java.util.concurrent.locks.ReentrantLock$")
                || blockerClass.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock$")) {
            return ReleaseBlameAnalyzer.INSTANCE;
        }
        if (blockerClass.endsWith("$ConditionObject")) {
            return ConditionWaitAnalyzer.INSTANCE;
        }
        return GenericBlockerAnalyzer.INSTANCE;
    }
}
