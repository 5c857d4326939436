package dev.lockscope.e2e.server;

import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Jetty 12 server whose every request runs on a virtual thread ({@link VirtualThreadPool}, JDK
 * 21+), or with the argument {@code platform} on Jetty's usual {@link QueuedThreadPool}; each
 * request reserves stock in {@link Stock#reserve}, which holds one {@code synchronized} ledger for
 * 2 ms; {@code /stats} says how many requests reached the handler, got through the lock and were answered.
 * Prints {@code port N}, serves until a line arrives on stdin (or 120 s pass), then stops.
 * Run by VirtualThreadServerIT in a child JVM under the agent.
 */
public final class ReservationServer {
    /** The application's own lock: one ledger for all requests. */
    static final class Stock {
        private final Object ledger = new Object();
        private long reserved;

        long reserve() {
            synchronized (ledger) {
                reserved++;
                try {
                    Thread.sleep(2); // bookkeeping under the lock
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return reserved;
            }
        }
    }

    private ReservationServer() {
    }

    public static void main(String[] args) throws Exception {
        Stock stock = new Stock();
        ThreadPool pool;
        if (args.length > 0 && args[0].equals("platform")) {
            QueuedThreadPool platform = new QueuedThreadPool();
            platform.setName("reservations");
            pool = platform;
        } else {
            VirtualThreadPool virtual = new VirtualThreadPool();
            virtual.setName("reservations");
            pool = virtual;
        }
        Server server = new Server(pool);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        // What became of the requests that reached the handler, for /stats: a request a client waits for in
        // vain either never reached it, or is stuck in the lock or in writing its answer
        AtomicLong started = new AtomicLong();
        AtomicLong reserved = new AtomicLong();
        AtomicLong answered = new AtomicLong();
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.getHeaders().put("Content-Type", "text/plain");
                if (Request.getPathInContext(request).equals("/stats")) {
                    Content.Sink.write(response, true, "started " + started.get() + " reserved " + reserved.get()
                            + " answered " + answered.get() + "\n", callback);
                    return true;
                }
                started.incrementAndGet();
                long n = stock.reserve();
                reserved.incrementAndGet();
                Content.Sink.write(response, true, "reserved " + n + "\n", new Callback() {
                    @Override
                    public void succeeded() {
                        answered.incrementAndGet();
                        callback.succeeded();
                    }

                    @Override
                    public void failed(Throwable x) {
                        callback.failed(x);
                    }

                    @Override
                    public InvocationType getInvocationType() {
                        return callback.getInvocationType();
                    }
                });
                return true;
            }
        });
        server.start();
        System.out.println("port " + connector.getLocalPort());
        System.out.flush();
        Thread stopper = new Thread(() -> {
            try {
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            } catch (Exception ignored) {
                // stop anyway
            }
        });
        stopper.setDaemon(true);
        stopper.start();
        stopper.join(120_000);
        server.stop();
    }
}
