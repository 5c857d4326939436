package dev.lockscope.demo;

import java.util.concurrent.atomic.AtomicBoolean;

/** Runs the {@link ArticleService} demo: four article-number callers and one name searcher. */
final class ArticleScenario implements Scenario {
    static final int ARTICLE_CALLERS = 4;
    private final ArticleService service;

    ArticleScenario(boolean intrinsic) {
        this.service = intrinsic ? new SyncArticleService() : new JucArticleService();
    }

    @Override
    public void run(double seconds) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Timeline tl = new Timeline();
        for (int i = 0; i < ARTICLE_CALLERS; i++) {
            int no = i;
            tl.start("article-" + i, 0, () -> {
                while (!stop.get()) {
                    service.queryByArticleNo(no);
                    Scenario.briefly(5000);
                }
            });
        }
        tl.start("name-search", 0, () -> {
            while (!stop.get()) {
                service.queryByName("widget");
                // back before the queued article lookups are through, so the search itself waits for the
                // lock (a monitor owner's chain is known from its own contended acquisitions)
                Scenario.briefly(200);
            }
        });
        tl.at((long) (seconds * 1000));
        stop.set(true);
        tl.join();
    }
}
