package dev.lockscope.demo;

/** {@link ArticleService} guarded by {@code synchronized}. */
final class SyncArticleService implements ArticleService {
    private final Object catalog = new Object();
    private long lookups;

    @Override
    public long queryByArticleNo(int articleNo) {
        synchronized (catalog) {
            Scenario.briefly(ARTICLE_LOOKUP_MICROS);
            return ++lookups + articleNo;
        }
    }

    @Override
    public long queryByName(String name) throws InterruptedException {
        synchronized (catalog) {
            Thread.sleep(NAME_SEARCH_MS); // a slow scan of the whole catalog
            return ++lookups + name.length();
        }
    }
}
