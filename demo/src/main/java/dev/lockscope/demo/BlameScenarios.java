package dev.lockscope.demo;

import java.util.Map;
import java.util.TreeMap;

/** The owner-blame scenarios with known answers (issue 4), by pattern name. */
final class BlameScenarios {
    static final Map<String, String> PATTERNS = new TreeMap<>();

    static {
        PATTERNS.put("blame-fig44-sync", "Hofer Fig. 4.4 with synchronized (3 rounds)");
        PATTERNS.put("blame-fig44-juc", "Hofer Fig. 4.4 with ReentrantLock (3 rounds)");
        PATTERNS.put("blame-article-sync", "Hofer's demo: wait in queryByArticleNo, held in queryByName (synchronized)");
        PATTERNS.put("blame-article-juc", "the same with ReentrantLock");
        PATTERNS.put("blame-calibration-sync", "chains X (9 ms) and Y (1 ms) on one monitor: owner shares 90%/10%");
        PATTERNS.put("blame-calibration-juc", "the same with ReentrantLock");
        PATTERNS.put("blame-barging-juc", "Hofer Fig. 4.6: a thread barges into a non-fair ReentrantLock");
        PATTERNS.put("blame-rw-juc", "ReentrantReadWriteLock: writer→readers, writer→writer, readers→writer");
        PATTERNS.put("blame-semaphore-juc", "a one-permit Semaphore (no owner)");
        PATTERNS.put("blame-wait-sync", "Object.wait/notifyAll, then contention re-acquiring the monitor");
        PATTERNS.put("blame-split-sync", "siteA/siteB[/siteC] hold one monitor back to back [--split 3:7] [--unit-ms 1]");
        PATTERNS.put("blame-split-juc", "the same with ReentrantLock");
        PATTERNS.put("blame-datagram-juc", "DatagramChannel.send from --threads threads (JDK code; its write ReentrantLock)");
        PATTERNS.put("blame-wait-juc", "Condition.await/signalAll, then contention re-acquiring the lock");
    }

    private BlameScenarios() {
    }

    /**
     * The scenario for a pattern, or null when the pattern is not a blame scenario.
     *
     * @param args the workload's own options (only the split scenarios take any)
     * @throws IllegalArgumentException for options the scenario does not know
     */
    static Scenario forPattern(String pattern, int threads, java.util.List<String> args) {
        if (pattern.startsWith("blame-split-")) {
            return switch (pattern) {
                case "blame-split-sync" -> new SplitHoldScenario(true, threads, args);
                case "blame-split-juc" -> new SplitHoldScenario(false, threads, args);
                default -> null;
            };
        }
        if (pattern.equals("blame-datagram-juc") && args.isEmpty()) {
            return new DatagramScenario(threads);
        }
        if (!args.isEmpty() && PATTERNS.containsKey(pattern)) {
            throw new IllegalArgumentException("unknown argument '" + args.get(0) + "'");
        }
        return switch (pattern) {
            case "blame-fig44-sync" -> new Fig44Scenario(true);
            case "blame-fig44-juc" -> new Fig44Scenario(false);
            case "blame-article-sync" -> new ArticleScenario(true);
            case "blame-article-juc" -> new ArticleScenario(false);
            case "blame-calibration-sync" -> new CalibrationScenario(true);
            case "blame-calibration-juc" -> new CalibrationScenario(false);
            case "blame-barging-juc" -> new BargingScenario();
            case "blame-rw-juc" -> new ReadWriteScenario();
            case "blame-semaphore-juc" -> new SemaphoreScenario();
            case "blame-wait-sync" -> new WaitNotifyScenario(true);
            case "blame-wait-juc" -> new WaitNotifyScenario(false);
            default -> null;
        };
    }
}
