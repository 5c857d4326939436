package dev.lockscope.demo;

import java.util.concurrent.locks.ReentrantLock;

/** {@link ArticleService} guarded by a {@code ReentrantLock}. */
final class JucArticleService implements ArticleService {
    private final ReentrantLock catalog = new ReentrantLock();
    private long lookups;

    @Override
    public long queryByArticleNo(int articleNo) {
        catalog.lock();
        try {
            long start = System.nanoTime();
            Scenario.briefly(ARTICLE_LOOKUP_MICROS);
            Truth.add("hold-queryByArticleNo", System.nanoTime() - start);
            return ++lookups + articleNo;
        } finally {
            catalog.unlock();
        }
    }

    @Override
    public long queryByName(String name) throws InterruptedException {
        catalog.lock();
        try {
            long start = System.nanoTime();
            Thread.sleep(NAME_SEARCH_MS); // a slow scan of the whole catalog
            Truth.add("hold-queryByName", System.nanoTime() - start);
            return ++lookups + name.length();
        } finally {
            catalog.unlock();
        }
    }
}
