package dev.lockscope.agent;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.management.ObjectName;

/**
 * The agent's live metrics: {@code GET /metrics} in Prometheus' text format (loopback unless an
 * address is given), and the {@link LockContentionMXBean}. Scrapes read the agent's tallies the way a
 * table does (snapshots, no lock or write on the application's park path).
 *
 * <p>The server is lockscope's own, on one daemon thread with one selector, because each of its
 * connections takes one of the application's file descriptors: a client that connects and sends
 * nothing, or half a request, must not hold one for long, nor keep the others waiting (the JDK's
 * {@code com.sun.net.httpserver} reads each request's headers on its executor thread with no time
 * limit, and keeps every idle connection open). So at most {@value #MAX_CONNECTIONS} connections are
 * open at once; each must send its request ({@value #MAX_REQUEST_BYTES} bytes at most) and take its
 * answer within {@value #EXCHANGE_MILLIS} ms of its accept, and is closed then at the latest. A
 * connection beyond the cap closes the one that has waited longest for its request, or itself when
 * every other is being answered. One request per connection ({@code Connection: close}).
 */
final class MetricsEndpoint implements AutoCloseable {
    static final int MAX_CONNECTIONS = 16;
    static final int MAX_REQUEST_BYTES = 8192;
    static final long EXCHANGE_MILLIS = 2000;
    private static final long ACCEPT_PAUSE_MILLIS = 100;
    static final String THREAD_NAME = "lockscope-metrics";
    private static final String PATH = "/metrics";

    private final ServerSocketChannel server;
    private final Selector selector;
    private final Supplier<String> body;
    private final Thread thread;
    private final ByteBuffer discard = ByteBuffer.allocate(4096);
    /** Open connections; read and written by the server's thread only. */
    private int connections;
    /** After a failed accept (the process out of descriptors): when to accept again, or 0. */
    private long acceptPausedUntil;
    private volatile boolean closing;

    private MetricsEndpoint(ServerSocketChannel server, Selector selector, Supplier<String> body) {
        this.server = server;
        this.selector = selector;
        this.body = body;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true); // never keeps the application's JVM from exiting
    }

    /**
     * Starts serving; returns null after one "lockscope:" line when it cannot (port taken, address not
     * local): the recording goes on without it.
     */
    static MetricsEndpoint start(String hostPort, Supplier<LiveMetrics.Snapshot> snapshots) {
        try {
            MetricsEndpoint endpoint = serve(AgentOptions.metricsAddress(hostPort), () -> LiveMetrics.prometheus(snapshots.get()));
            LockscopeAgent.log("metrics at http://" + hostText(endpoint.address()) + PATH);
            return endpoint;
        } catch (Throwable t) {
            LockscopeAgent.log("no metrics endpoint (" + t + "); recording goes on");
            return null;
        }
    }

    /** Serves {@code body} at {@code GET /metrics} on {@code address}. */
    static MetricsEndpoint serve(InetSocketAddress address, Supplier<String> body) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        Selector selector = null;
        try {
            server.bind(address, 64); // connections waiting in the kernel's queue take no descriptor of the application
            server.configureBlocking(false);
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
            MetricsEndpoint endpoint = new MetricsEndpoint(server, selector, body);
            endpoint.thread.start();
            return endpoint;
        } catch (IOException | RuntimeException e) {
            server.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    private static String hostText(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** One connection: its request read so far, then its answer, then the wait for the client's close. */
    private static final class Exchange {
        final long acceptedNanos;
        /** Allocated at the first bytes: an idle connection costs a descriptor and no buffer. */
        ByteBuffer request;
        /** Null while the request is read. */
        ByteBuffer response;
        /** The answer is written and our side shut: read until the client closes (closing on unread bytes resets the answer). */
        boolean draining;

        Exchange(long acceptedNanos) {
            this.acceptedNanos = acceptedNanos;
        }

        long deadlineNanos() {
            return acceptedNanos + TimeUnit.MILLISECONDS.toNanos(EXCHANGE_MILLIS);
        }
    }

    private void run() {
        try {
            SelectionKey accepting = server.keyFor(selector);
            while (!closing) {
                long now = System.nanoTime();
                if (acceptPausedUntil != 0 && now - acceptPausedUntil >= 0) {
                    acceptPausedUntil = 0;
                    accepting.interestOps(SelectionKey.OP_ACCEPT);
                }
                selector.select(closeExpired(now));
                Iterator<SelectionKey> selected = selector.selectedKeys().iterator();
                while (selected.hasNext() && !closing) {
                    SelectionKey key = selected.next();
                    selected.remove();
                    if (key.isValid() && key.isAcceptable()) {
                        try {
                            acceptAll();
                        } catch (IOException e) {
                            // the connection stays in the kernel's queue and the socket stays ready: without a pause the
                            // thread would spin while the process has no descriptor to spare
                            key.interestOps(0);
                            acceptPausedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACCEPT_PAUSE_MILLIS);
                        }
                    } else if (key.isValid()) {
                        try {
                            step(key);
                        } catch (IOException | RuntimeException e) {
                            close(key); // this client's trouble ends this client's connection only
                        }
                    }
                }
            }
        } catch (Throwable t) {
            if (!closing) {
                LockscopeAgent.log("metrics endpoint stopped (" + t + "); recording goes on");
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key);
            }
            closeQuietly(selector);
            closeQuietly(server);
        }
    }

    /** Closes the connections past their deadline; the milliseconds until the next deadline (0: none). */
    private long closeExpired(long now) {
        long next = acceptPausedUntil != 0 ? acceptPausedUntil - now : Long.MAX_VALUE;
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Exchange e) {
                long left = e.deadlineNanos() - now;
                if (left <= 0) {
                    close(key);
                } else {
                    next = Math.min(next, left);
                }
            }
        }
        return next == Long.MAX_VALUE ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(next) + 1);
    }

    private void acceptAll() throws IOException {
        SocketChannel client;
        while ((client = server.accept()) != null) {
            if (connections >= MAX_CONNECTIONS && !closeLongestWaiting()) {
                closeQuietly(client); // every open connection is being answered: refused
                continue;
            }
            try {
                client.configureBlocking(false);
                client.register(selector, SelectionKey.OP_READ, new Exchange(System.nanoTime()));
                connections++;
            } catch (IOException | RuntimeException e) {
                closeQuietly(client);
            }
        }
    }

    /** Closes the connection that has waited longest for its request; false when none is waiting. */
    private boolean closeLongestWaiting() {
        SelectionKey oldest = null;
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Exchange e && e.response == null
                    && (oldest == null || e.acceptedNanos < ((Exchange) oldest.attachment()).acceptedNanos)) {
                oldest = key;
            }
        }
        if (oldest == null) {
            return false;
        }
        close(oldest);
        return true;
    }

    private void step(SelectionKey key) throws IOException {
        SocketChannel client = (SocketChannel) key.channel();
        Exchange e = (Exchange) key.attachment();
        if (e.draining) {
            discard.clear();
            if (client.read(discard) < 0) {
                close(key);
            }
            return;
        }
        if (e.response == null) {
            if (e.request == null) {
                e.request = ByteBuffer.allocate(MAX_REQUEST_BYTES);
            }
            int from = Math.max(0, e.request.position() - 3);
            if (client.read(e.request) < 0) {
                close(key); // the client gave up before its request was complete
                return;
            }
            int end = headersEnd(e.request, from);
            if (end < 0 && e.request.hasRemaining()) {
                return; // more to come
            }
            e.response = ByteBuffer.wrap(end < 0 ? answer(431, "Request Header Fields Too Large", "request too large\n", false)
                    : respond(new String(e.request.array(), 0, end, StandardCharsets.ISO_8859_1)));
            key.interestOps(SelectionKey.OP_WRITE);
        }
        client.write(e.response);
        if (!e.response.hasRemaining()) {
            client.shutdownOutput();
            e.draining = true;
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    /** The index just past the request line where its headers end (an empty line), or -1. */
    private static int headersEnd(ByteBuffer request, int from) {
        byte[] b = request.array();
        for (int i = from; i < request.position(); i++) {
            if (b[i] == '\n' && ((i >= 1 && b[i - 1] == '\n') || (i >= 2 && b[i - 1] == '\r' && b[i - 2] == '\n'))) {
                return i + 1;
            }
        }
        return -1;
    }

    /** The answer to one request (its request line and headers, in ISO-8859-1 as HTTP/1.1 reads them). */
    private byte[] respond(String head) {
        String requestLine = head.substring(0, head.indexOf('\n')).strip();
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3 || !parts[2].startsWith("HTTP/") || parts[1].isEmpty()) {
            return answer(400, "Bad Request", "bad request\n", false);
        }
        boolean headOnly = parts[0].equals("HEAD");
        if (!headOnly && !parts[0].equals("GET")) {
            return answer(405, "Method Not Allowed", "only GET and HEAD\n", false);
        }
        int query = parts[1].indexOf('?');
        if (!(query < 0 ? parts[1] : parts[1].substring(0, query)).equals(PATH)) {
            return answer(404, "Not Found", "the metrics are at " + PATH + "\n", headOnly);
        }
        try {
            return answer(200, "OK", body.get(), headOnly);
        } catch (Throwable t) {
            return answer(500, "Internal Server Error", "lockscope: metrics failed: " + t + "\n", headOnly);
        }
    }

    private static byte[] answer(int status, String reason, String text, boolean headOnly) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        String type = status == 200 ? PrometheusText.CONTENT_TYPE : "text/plain; charset=utf-8";
        byte[] headers = ("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: " + type + "\r\nContent-Length: " + body.length
                + (status == 405 ? "\r\nAllow: GET, HEAD" : "") + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        if (headOnly) {
            return headers;
        }
        byte[] all = new byte[headers.length + body.length];
        System.arraycopy(headers, 0, all, 0, headers.length);
        System.arraycopy(body, 0, all, headers.length, body.length);
        return all;
    }

    private void close(SelectionKey key) {
        if (key.attachment() instanceof Exchange) {
            key.attach(null);
            connections--;
        }
        closeQuietly(key);
    }

    private static void closeQuietly(SelectionKey key) {
        key.cancel();
        closeQuietly(key.channel());
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing is all that is left to do with it
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

    /** Closes the socket and every connection, and waits for the server's thread to end. */
    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
