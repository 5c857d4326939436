package dev.lockscope.bench;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.FileAppender;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Workloads that are not micro-benchmarks: a producer/consumer pipeline, an embedded H2 database
 * and logback writing one file, each from many threads. {@code LibraryWorkloads <name> <threads>
 * <warmup-s> <measure-s>} prints {@code throughput: X ops/s} over the measured window.
 */
public final class LibraryWorkloads {
    private LibraryWorkloads() {
    }

    interface Op {
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int threads = Integer.parseInt(args[1]);
        double warmup = Double.parseDouble(args[2]);
        double measure = Double.parseDouble(args[3]);
        List<Op> perThread = new ArrayList<>();
        switch (name) {
            case "queue-pipeline" -> {
                BlockingQueue<Long> queue = new ArrayBlockingQueue<>(64);
                for (int i = 0; i < threads; i++) {
                    perThread.add(i % 2 == 0 ? () -> queue.put(1L) : queue::take);
                }
            }
            case "h2" -> {
                Connection setup = DriverManager.getConnection("jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1");
                try (Statement st = setup.createStatement()) {
                    st.execute("create table item(id bigint auto_increment primary key, name varchar(64), qty int)");
                }
                for (int i = 0; i < threads; i++) {
                    Connection c = DriverManager.getConnection("jdbc:h2:mem:bench");
                    PreparedStatement insert = c.prepareStatement("insert into item(name, qty) values (?, ?)");
                    PreparedStatement query = c.prepareStatement("select count(*), sum(qty) from item where qty = ?");
                    int me = i;
                    perThread.add(() -> {
                        insert.setString(1, "item-" + me);
                        insert.setInt(2, me);
                        insert.executeUpdate();
                        query.setInt(1, me);
                        try (ResultSet rs = query.executeQuery()) {
                            rs.next();
                        }
                    });
                }
            }
            case "logback" -> {
                Logger logger = fileLogger(Files.createTempFile("lockscope-bench", ".log"));
                for (int i = 0; i < threads; i++) {
                    int me = i;
                    perThread.add(() -> logger.info("request {} handled by worker {}", me * 31, me));
                }
            }
            default -> throw new IllegalArgumentException("unknown workload " + name);
        }
        double opsPerSecond = run(perThread, warmup, measure);
        System.out.printf(Locale.ROOT, "throughput: %.3f ops/s%n", opsPerSecond);
        System.exit(0); // H2 and logback keep threads of their own
    }

    private static Logger fileLogger(Path file) {
        LoggerContext ctx = new LoggerContext();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(ctx);
        encoder.setPattern("%d %-5level [%thread] %logger - %msg%n");
        encoder.start();
        FileAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(ctx);
        appender.setFile(file.toString());
        appender.setEncoder(encoder);
        appender.start();
        file.toFile().deleteOnExit();
        Logger logger = ctx.getLogger("bench");
        logger.addAppender(appender);
        logger.setAdditive(false);
        return logger;
    }

    /** Runs every op in a loop on its own thread; counts ops only inside the measured window. */
    private static double run(List<Op> ops, double warmupSeconds, double measureSeconds) throws Exception {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder done = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        op.run();
                        if (measuring.get()) {
                            done.increment();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "bench-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        Thread.sleep((long) (warmupSeconds * 1000));
        measuring.set(true);
        long t0 = System.nanoTime();
        Thread.sleep((long) (measureSeconds * 1000));
        long ops0 = done.sum();
        double elapsed = (System.nanoTime() - t0) / 1e9;
        stop.set(true);
        return ops0 / elapsed;
    }
}
