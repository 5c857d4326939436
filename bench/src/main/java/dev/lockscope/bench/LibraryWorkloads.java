package dev.lockscope.bench;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.FileAppender;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import java.util.concurrent.locks.LockSupport;

/**
 * Workloads that are not micro-benchmarks, on real libraries from Maven Central, each from many
 * threads: a producer/consumer pipeline, an embedded H2 database, logback and log4j2 writing one
 * file, an exhausted commons-pool2 object pool, a Caffeine loading cache whose loader is slow, HSQLDB in its
 * two-phase table-locking mode, and a Jetty 12 HTTP server under loopback load from
 * clients in a JVM of their own ({@value #LOAD_CLIENTS}, started by the server's process); and {@code idle}, a pool
 * of workers waiting for work that never comes (what a profiler costs a quiet service).
 * {@code LibraryWorkloads <name> <threads> <warmup-s> <measure-s>} prints {@code throughput: X ops/s}
 * and {@code process cpu: Y cores} over the measured window. The overhead harness measures the profilers on
 * them, and the e2e tests (RealLibrariesIT) check that lockscope names each one's known hot lock first.
 */
public final class LibraryWorkloads {
    /** The load clients of {@code http-server}: {@code LibraryWorkloads http-load <threads> <uri>}, until killed. */
    static final String LOAD_CLIENTS = "http-load";

    private LibraryWorkloads() {
    }

    interface Op {
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int threads = Integer.parseInt(args[1]);
        if (name.equals(LOAD_CLIENTS)) {
            loadClients(threads, URI.create(args[2]));
            return;
        }
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
            case "log4j2" -> {
                // synchronous FileAppender, flushed per event: every event is encoded and written while
                // the appender's FileManager monitor is held, the known hot lock of this workload
                org.apache.logging.log4j.Logger logger = log4jFileLogger(Files.createTempFile("lockscope-bench", ".log"));
                for (int i = 0; i < threads; i++) {
                    int me = i;
                    perThread.add(() -> logger.info("request {} handled by worker {}", me * 31, me));
                }
            }
            case "idle" -> {
                // an idle service: its pool's workers wait for work that does not come (a timed poll of an empty
                // queue, as ThreadPoolExecutor's idle workers do), one operation per worker per second; what a
                // profiler costs here it costs every second whatever the load (docs/agent-cost.md "The agent's
                // cost per second")
                BlockingQueue<Runnable> work = new java.util.concurrent.LinkedBlockingQueue<>();
                for (int i = 0; i < threads; i++) {
                    perThread.add(() -> work.poll(1, java.util.concurrent.TimeUnit.SECONDS));
                }
            }
            case "object-pool" -> {
                // 4 pooled "connections" for all threads, each used for 2 ms: borrowers wait in the pool's
                // LinkedBlockingDeque for an object another thread holds, the known hot lock
                GenericObjectPool<long[]> pool = objectPool(4);
                for (int i = 0; i < threads; i++) {
                    perThread.add(() -> {
                        long[] connection = pool.borrowObject();
                        try {
                            connection[0]++;
                            LockSupport.parkNanos(2_000_000);
                        } finally {
                            pool.returnObject(connection);
                        }
                    });
                }
            }
            case "caffeine" -> {
                // Caffeine 3.1's LoadingCache, 4 keys that expire 30 ms after they are loaded, the loader a 20 ms
                // remote call and a little computing: Caffeine runs it inside ConcurrentHashMap.compute, under
                // the bin's monitor, and the other readers of the key wait for that monitor meanwhile. The
                // bin's monitor is the hot lock; what its holders do is the loader (CacheLoads.slowLoad).
                com.github.benmanes.caffeine.cache.LoadingCache<Integer, long[]> cache = com.github.benmanes.caffeine.cache.Caffeine
                        .newBuilder().expireAfterWrite(java.time.Duration.ofMillis(30)).build(CacheLoads::slowLoad);
                for (int i = 0; i < threads; i++) {
                    int key = i % 4;
                    perThread.add(() -> cache.get(key));
                }
            }
            case "hsqldb" -> {
                // HSQLDB 2.7 in-memory in its default LOCKS mode (two-phase locking of whole tables, held until
                // commit): every transaction updates the one table and works a little before it commits, so
                // the others wait in Session's CountUpDownLatch until the committing session's
                // TransactionManager2PL resets their latches: a wait with no owner, ended by a release
                String url = "jdbc:hsqldb:mem:bench" + ProcessHandle.current().pid();
                try (Connection setup = DriverManager.getConnection(url, "SA", ""); Statement st = setup.createStatement()) {
                    st.execute("set database transaction control locks");
                }
                accountTransactions(perThread, threads, 16, () -> DriverManager.getConnection(url, "SA", ""));
            }
            case "derby" -> {
                // embedded Derby, each thread updating one of 4 hot rows per transaction: a thread that finds
                // the row locked waits in Object.wait (ActiveLock.waitForGrant) until the committing
                // thread's release grants it the lock and notifies it, the known hot lock here
                // Derby writes derby.log into the working directory unless told where
                Path derbyLog = Files.createTempFile("lockscope-bench-derby", ".log");
                derbyLog.toFile().deleteOnExit();
                System.setProperty("derby.stream.error.file", derbyLog.toString());
                String url = "jdbc:derby:memory:bench" + ProcessHandle.current().pid() + ";create=true";
                accountTransactions(perThread, threads, 4, () -> DriverManager.getConnection(url));
            }
            case "http-server" -> {
                // Jetty's own thread pool serving a small response (the handler counts requests in a
                // synchronized block), under load from client threads over loopback in a JVM of their own:
                // the process measured, and profiled, is the server's. Until 2026-11-28 the clients ran in
                // this JVM, and 82,153 of the 82,560 parks the agent recorded in 16 s were their
                // CompletableFuture waits in HttpClient.send: the load generator's cost, not the server's.
                long[] served = new long[1];
                URI uri = startHttpServer(served);
                Process clients = startLoadClients(threads, uri);
                try {
                    java.util.function.LongSupplier count = () -> {
                        synchronized (served) {
                            return served[0];
                        }
                    };
                    // the warm-up counts from the first request served: the clients' JVM takes a second to start
                    for (long until = System.nanoTime() + 60_000_000_000L; count.getAsLong() == 0 && clients.isAlive()
                            && System.nanoTime() < until; ) {
                        Thread.sleep(10);
                    }
                    window(count, warmup, measure);
                } finally {
                    clients.destroyForcibly();
                }
                System.exit(0);
            }
            default -> throw new IllegalArgumentException("unknown workload " + name);
        }
        run(perThread, warmup, measure);
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

    private static org.apache.logging.log4j.Logger log4jFileLogger(Path file) {
        ConfigurationBuilder<BuiltConfiguration> b = ConfigurationBuilderFactory.newConfigurationBuilder();
        b.setStatusLevel(Level.ERROR);
        b.add(b.newAppender("file", "File").addAttribute("fileName", file.toString()).addAttribute("immediateFlush", true)
                .add(b.newLayout("PatternLayout").addAttribute("pattern", "%d %-5level [%t] %logger - %msg%n")));
        b.add(b.newRootLogger(Level.INFO).add(b.newAppenderRef("file")));
        Configurator.initialize(b.build());
        file.toFile().deleteOnExit();
        return LogManager.getLogger("bench");
    }

    private static GenericObjectPool<long[]> objectPool(int objects) {
        GenericObjectPoolConfig<long[]> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(objects);
        config.setMaxIdle(objects);
        config.setJmxEnabled(false);
        return new GenericObjectPool<>(new BasePooledObjectFactory<>() {
            @Override
            public long[] create() {
                return new long[1];
            }

            @Override
            public PooledObject<long[]> wrap(long[] connection) {
                return new DefaultPooledObject<>(connection);
            }
        }, config);
    }

    /** {@value #LOAD_CLIENTS}: one request after another from each of {@code threads} threads, until the server's process ends. */
    private static void loadClients(int threads, URI uri) {
        // the server's process kills this one at its end; should it die first, this one ends with it
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(uri).build();
        for (int i = 0; i < threads; i++) {
            new Thread(() -> {
                try {
                    while (true) {
                        if (client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() != 200) {
                            throw new IllegalStateException("request failed");
                        }
                    }
                } catch (Exception e) {
                    System.err.println("http-load: " + e);
                    Runtime.getRuntime().halt(1);
                }
            }, "client-" + i).start();
        }
    }

    /** The load clients in a JVM of their own: the same java and class path, and no profiler (no JAVA_TOOL_OPTIONS). */
    private static Process startLoadClients(int threads, URI uri) throws java.io.IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LibraryWorkloads.class.getName(), LOAD_CLIENTS,
                Integer.toString(threads), uri.toString());
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }

    /** Starts a Jetty server on a loopback port; its handler counts requests in {@code served}, under its monitor. */
    private static URI startHttpServer(long[] served) throws Exception {
        // Jetty logs through SLF4J, which finds logback here; logback's default would print Jetty's DEBUG
        ((Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(ch.qos.logback.classic.Level.WARN);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                long n;
                synchronized (served) {
                    n = ++served[0];
                }
                response.getHeaders().put("Content-Type", "text/plain");
                Content.Sink.write(response, true, "request " + n + "\n", callback);
                return true;
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
    }

    /** Runs every op in a loop on its own thread, and measures them ({@link #window}). */
    private static void run(List<Op> ops, double warmupSeconds, double measureSeconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder done = new LongAdder();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        op.run();
                        done.increment();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "bench-" + i);
            t.setDaemon(true);
            t.start();
        }
        window(done::sum, warmupSeconds, measureSeconds);
        stop.set(true);
    }

    /**
     * After the warm-up, the operations {@code completed} counts during the measured window, and the process's
     * CPU in it: prints that window's throughput and process CPU ({@link ProcessCpu#line}).
     */
    private static void window(java.util.function.LongSupplier completed, double warmupSeconds, double measureSeconds)
            throws InterruptedException {
        Thread.sleep((long) (warmupSeconds * 1000));
        long ops0 = completed.getAsLong();
        long cpu0 = ProcessCpu.nanos();
        long t0 = System.nanoTime();
        Thread.sleep((long) (measureSeconds * 1000));
        long ops = completed.getAsLong() - ops0;
        long cpu = ProcessCpu.nanos() - cpu0;
        long elapsed = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "throughput: %.3f ops/s%n", ops / (elapsed / 1e9));
        System.out.println(ProcessCpu.line(cpu, elapsed));
    }

    /**
     * The database workloads: a table {@code account} of {@code rows} rows, and per thread one connection whose
     * every operation is a transaction that updates the thread's row ({@code thread % rows}), works 200 µs
     * holding the lock that update took, and commits.
     */
    private static void accountTransactions(List<Op> perThread, int threads, int rows, java.util.concurrent.Callable<Connection> connect)
            throws Exception {
        try (Connection setup = connect.call(); Statement st = setup.createStatement()) {
            st.execute("create table account(id int primary key, balance bigint)");
            for (int row = 0; row < rows; row++) {
                st.execute("insert into account values (" + row + ", 0)");
            }
        }
        for (int i = 0; i < threads; i++) {
            Connection c = connect.call();
            c.setAutoCommit(false);
            PreparedStatement update = c.prepareStatement("update account set balance = balance + 1 where id = ?");
            int row = i % rows;
            perThread.add(() -> {
                update.setInt(1, row);
                update.executeUpdate();
                LockSupport.parkNanos(200_000); // the rest of the transaction's work, holding the lock
                c.commit();
            });
        }
    }

    /** The Caffeine workload's loader: a remote call (a sleep) and the computing of its answer. */
    static final class CacheLoads {
        private CacheLoads() {
        }

        static long[] slowLoad(Integer key) throws InterruptedException {
            Thread.sleep(20);
            long[] value = new long[256];
            for (int i = 0; i < value.length; i++) {
                value[i] = (key + 31L * i) * 0x9E3779B97F4A7C15L;
            }
            return value;
        }
    }
}
