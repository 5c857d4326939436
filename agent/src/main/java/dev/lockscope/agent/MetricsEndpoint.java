package dev.lockscope.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javax.management.ObjectName;

/**
 * The agent's live metrics: {@code GET /metrics} in Prometheus' text format on a JDK
 * {@code com.sun.net.httpserver} server (loopback unless an address is given), and the
 * {@link LockContentionMXBean}. Scrapes run on one daemon thread of the agent and read the agent's
 * tallies the way a table does (snapshots, no lock or write on the application's park path).
 */
final class MetricsEndpoint implements AutoCloseable {
    private final HttpServer server;

    private MetricsEndpoint(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts serving; returns null after one "lockscope:" line when it cannot (port taken, no
     * jdk.httpserver module in a jlinked runtime): the recording goes on without it.
     */
    static MetricsEndpoint start(String hostPort, Supplier<LiveMetrics.Snapshot> snapshots) {
        try {
            InetSocketAddress address = AgentOptions.metricsAddress(hostPort);
            HttpServer server = HttpServer.create(address, 8);
            server.createContext("/metrics", exchange -> serve(exchange, snapshots));
            server.setExecutor(Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "lockscope-metrics");
                t.setDaemon(true);
                return t;
            }));
            // HttpServer's dispatcher thread takes the daemon status of the thread that starts it: a
            // daemon, so the endpoint never keeps the application's JVM from exiting
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread starter = new Thread(() -> {
                try {
                    server.start();
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "lockscope-metrics-start");
            starter.setDaemon(true);
            starter.start();
            starter.join();
            if (failed.get() != null) {
                throw failed.get();
            }
            LockscopeAgent.log("metrics at http://" + hostText(server.getAddress()) + "/metrics");
            return new MetricsEndpoint(server);
        } catch (Throwable t) {
            LockscopeAgent.log("no metrics endpoint (" + t + "); recording goes on");
            return null;
        }
    }

    private static String hostText(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    private static void serve(HttpExchange exchange, Supplier<LiveMetrics.Snapshot> snapshots) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            int status = 200;
            try {
                body = LiveMetrics.prometheus(snapshots.get()).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", PrometheusText.CONTENT_TYPE);
            } catch (Throwable t) {
                status = 500;
                body = ("lockscope: metrics failed: " + t + "\n").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            }
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** Registers the MXBean ({@link LockContention#OBJECT_NAME}); one line and nothing else when it cannot. */
    static void registerMBean(Supplier<LiveMetrics.Snapshot> snapshots) {
        try {
            var server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(LockContention.OBJECT_NAME);
            if (server.isRegistered(name)) {
                server.unregisterMBean(name); // an earlier attach/stop cycle's
            }
            server.registerMBean(new LockContention(snapshots), name);
        } catch (Throwable t) {
            LockscopeAgent.log("no JMX MBean (" + t + "); recording goes on");
        }
    }

    @Override
    public void close() {
        server.stop(0);
        if (server.getExecutor() instanceof java.util.concurrent.ExecutorService e) {
            e.shutdownNow();
        }
    }
}
