package dev.lockscope.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A slow or hostile client of the agent's metrics endpoint ({@code metricsPort=0}, the demo as the
 * application) cannot silence the scrapes or take the application's file descriptors: each
 * connection is one of the application's descriptors. The cap is the agent's
 * {@code MetricsEndpoint.MAX_CONNECTIONS}.
 */
class MetricsEndpointLimitsIT {
    private static final Pattern ENDPOINT = Pattern.compile("lockscope: metrics at http://(127\\.0\\.0\\.1):(\\d+)/metrics");
    private static final int CAP = 16;

    @TempDir
    Path dir;
    private Proc app;
    private final List<Socket> clients = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @AfterEach
    void stop() throws IOException {
        for (Socket s : clients) {
            s.close();
        }
        if (app != null) {
            app.process.destroyForcibly();
        }
    }

    /** The JDK's HttpServer read a request's headers on its one thread with no time limit: every later scrape waited. */
    @Test
    void aHalfSentRequestDoesNotDelayAScrape() throws Exception {
        InetSocketAddress at = startWithMetrics();
        assertThat(scrape(at, Duration.ofSeconds(30)).statusCode()).isEqualTo(200); // the first scrape loads and compiles
        Socket half = connect(at);
        half.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.ISO_8859_1));
        half.getOutputStream().flush();
        for (int i = 0; i < 3; i++) {
            assertThat(scrape(at, Duration.ofSeconds(1)).statusCode()).isEqualTo(200);
        }
        half.setSoTimeout(60_000);
        assertThat(half.getInputStream().read()).as("the half-sent request is closed, unanswered").isEqualTo(-1);
    }

    /**
     * 1,000 connections that send nothing: the application holds at most the cap of them (the JDK's
     * HttpServer kept every one), a scrape is answered while they are open, and once they are gone
     * the application's descriptors are back to where they were.
     */
    @Test
    void idleConnectionsTakeAtMostTheCapOfTheApplicationsDescriptors() throws Exception {
        InetSocketAddress at = startWithMetrics();
        assertThat(scrape(at, Duration.ofSeconds(30)).statusCode()).isEqualTo(200);
        long before = descriptors();
        for (int i = 0; i < 1000; i++) {
            connect(at);
        }
        // answered after the server took every earlier connection from its queue (accepted in order)
        assertThat(scrape(at, Duration.ofSeconds(10)).statusCode()).isEqualTo(200);
        long during = descriptors();
        assertThat(during - before).as("descriptors of the application: %d before, %d with 1,000 idle connections open",
                before, during).isLessThanOrEqualTo(CAP);
        for (Socket s : clients) {
            s.close();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (descriptors() > before && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(descriptors()).as("descriptors once the clients are gone").isLessThanOrEqualTo(before);
        assertThat(app.err()).doesNotContain("Exception");
    }

    /** {@code attach --stop} closes the listening socket, the open connections and the server's thread. */
    @Test
    void attachStopClosesTheEndpoint() throws Exception {
        app = Proc.start(dir, Proc.demoCommand(null, "large-cs-juc", "--threads", "4", "--seconds", "300"));
        String pid = Long.toString(app.process.pid());
        Proc attach = Proc.lockscope(dir, 60, "attach", pid, "--metrics-port", "0", "-o", dir.resolve("attached.jfr").toString());
        assertThat(attach.exitCode()).as(attach.err()).isZero();
        InetSocketAddress at = awaitEndpoint();
        assertThat(scrape(at, Duration.ofSeconds(30)).statusCode()).isEqualTo(200);
        Socket idle = connect(at);
        assertThat(threadNames()).contains("lockscope-metri"); // /proc gives the first 15 characters

        Proc stop = Proc.lockscope(dir, 60, "attach", pid, "--stop");
        assertThat(stop.exitCode()).as(stop.err()).isZero();
        assertThat(threadNames()).doesNotContain("lockscope-metri");
        idle.setSoTimeout(60_000);
        assertThat(idle.getInputStream().read()).isEqualTo(-1);
        assertThatThrownBy(() -> new Socket(at.getAddress(), at.getPort()).close()).isInstanceOf(ConnectException.class);
        assertThat(app.process.isAlive()).as("the application keeps running").isTrue();
    }

    private InetSocketAddress startWithMetrics() throws Exception {
        app = Proc.start(dir, Proc.demoCommand("file=" + dir.resolve("app.jfr") + ",metricsPort=0,report=off",
                "large-cs-juc", "--threads", "4", "--seconds", "300"));
        return awaitEndpoint();
    }

    private InetSocketAddress awaitEndpoint() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Matcher m = ENDPOINT.matcher(app.err());
            if (m.find()) {
                return new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2)));
            }
            assertThat(app.process.isAlive()).as("demo exited: " + app.err()).isTrue();
            Thread.sleep(100);
        }
        throw new AssertionError("the agent named no metrics endpoint: " + app.err());
    }

    private HttpResponse<String> scrape(InetSocketAddress at, Duration timeout) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + at.getPort() + "/metrics");
        return http.send(HttpRequest.newBuilder(uri).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
    }

    private Socket connect(InetSocketAddress at) throws IOException {
        Socket s = new Socket();
        clients.add(s);
        s.connect(at, 10_000);
        return s;
    }

    /** The application's open file descriptors. */
    private long descriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(app.process.pid()), "fd"))) {
            return fds.count();
        }
    }

    private List<String> threadNames() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(app.process.pid()), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    names.add(Files.readString(task.resolve("comm")).strip());
                } catch (IOException ended) {
                    // the thread ended while we listed
                }
            }
        }
        return names;
    }
}
