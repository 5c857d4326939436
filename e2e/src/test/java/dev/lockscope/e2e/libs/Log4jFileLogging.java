package dev.lockscope.e2e.libs;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

import java.util.ArrayList;
import java.util.List;

/**
 * log4j2 under load, as an application would use it: {@code THREADS} threads (default 16) log
 * through one synchronous {@code FileAppender} with immediate flush for {@code SECONDS} seconds
 * (default 4). Every event is encoded and written while the appender's {@code FileManager} monitor
 * is held, so that monitor is the library's known hot lock for this workload. Prints "events N".
 */
public final class Log4jFileLogging {
    private Log4jFileLogging() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 4;
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setStatusLevel(Level.ERROR);
        b.add(b.newAppender("file", "File").addAttribute("fileName", "app.log").addAttribute("immediateFlush", true)
                .add(b.newLayout("PatternLayout").addAttribute("pattern", "%d %-5level [%t] %logger - %msg%n")));
        b.add(b.newRootLogger(Level.INFO).add(b.newAppenderRef("file")));
        Configurator.initialize(b.build());
        Logger log = LogManager.getLogger("app.orders");
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long[] events = new long[threads];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                long n = 0;
                while (System.nanoTime() < end) {
                    log.info("order {} accepted for customer {} with {} items", n, id, n % 7);
                    n++;
                }
                events[id] = n;
            }, "request-" + t);
            workers.add(w);
            w.start();
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            workers.get(t).join();
            total += events[t];
        }
        LogManager.shutdown();
        System.out.println("events " + total);
    }
}
