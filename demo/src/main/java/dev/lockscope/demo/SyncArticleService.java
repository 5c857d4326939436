package dev.lockscope.demo;

/** {@link ArticleService} guarded by {@code synchronized}. */
final class SyncArticleService implements ArticleService {
    private final Object catalog = new Object();
    private long lookups;

    @Override
    public long queryByArticleNo(int articleNo) {
        synchronized (catalog) {
            long start = System.nanoTime();
            Scenario.briefly(ARTICLE_LOOKUP_MICROS);
            Truth.add("hold-queryByArticleNo", System.nanoTime() - start);
            return ++lookups + articleNo;
        }
    }

    @Override
    public long queryByName(String name) throws InterruptedException {
        synchronized (catalog) {
            long start = System.nanoTime();
            Thread.sleep(NAME_SEARCH_MS); // a slow scan of the whole catalog
            Truth.add("hold-queryByName", System.nanoTime() - start);
            return ++lookups + name.length();
        }
    }
}
