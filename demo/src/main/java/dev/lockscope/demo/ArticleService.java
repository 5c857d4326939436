package dev.lockscope.demo;

/**
 * Hofer §4.3.3 demo: many callers look articles up by number (short critical section), one
 * caller searches by name and holds the same lock long. Callers wait in {@code queryByArticleNo},
 * but the owner blamed is {@code queryByName}.
 */
interface ArticleService {
    long queryByArticleNo(int articleNo);

    long queryByName(String name) throws InterruptedException;

    long NAME_SEARCH_MS = 50;
    long ARTICLE_LOOKUP_MICROS = 300;
}
