package dev.lockscope.agent;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The metrics server's answers, its connection cap and deadline, and its close. */
class MetricsEndpointTest {
    private MetricsEndpoint endpoint;
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (Socket s : clients) {
            s.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }

    private InetSocketAddress serve(java.util.function.Supplier<String> body) throws IOException {
        endpoint = MetricsEndpoint.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), body);
        return endpoint.address();
    }

    /** The whole answer to {@code request}, read until the server closes. */
    private String exchange(InetSocketAddress at, String request) throws IOException {
        try (Socket s = new Socket(at.getAddress(), at.getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void answersGetAndHeadOfMetricsOnlyAndClosesEachConnection() throws IOException {
        InetSocketAddress at = serve(() -> "x_total 1\n");
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")).isEqualTo("HTTP/1.1 200 OK\r\n"
                + "Content-Type: " + PrometheusText.CONTENT_TYPE + "\r\nContent-Length: 10\r\nConnection: close\r\n\r\nx_total 1\n");
        assertThat(exchange(at, "GET /metrics?x=1 HTTP/1.0\n\n")).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nx_total 1\n");
        assertThat(exchange(at, "HEAD /metrics HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 OK\r\n")
                .contains("Content-Length: 10\r\n").endsWith("\r\n\r\n");
        assertThat(exchange(at, "POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")).startsWith("HTTP/1.1 405 ")
                .contains("Allow: GET, HEAD\r\n");
        assertThat(exchange(at, "GET /metrics/../etc HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 404 ");
        assertThat(exchange(at, "GET / HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 404 ");
        assertThat(exchange(at, "garbage\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        assertThat(exchange(at, "\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\nX: " + "a".repeat(MetricsEndpoint.MAX_REQUEST_BYTES) + "\r\n\r\n"))
                .startsWith("HTTP/1.1 431 ");
    }

    @Test
    void aFailingScrapeIsA500() throws IOException {
        InetSocketAddress at = serve(() -> {
            throw new IllegalStateException("boom");
        });
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 500 ")
                .endsWith("lockscope: metrics failed: java.lang.IllegalStateException: boom\n");
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\n\r\n")).as("the server goes on").startsWith("HTTP/1.1 500 ");
    }

    /** A client that sends half a request is closed at the deadline, and others are answered meanwhile. */
    @Test
    void aHalfSentRequestIsClosedAtTheDeadlineAndHoldsNoOneUp() throws IOException {
        InetSocketAddress at = serve(() -> "x 1\n");
        Socket half = new Socket(at.getAddress(), at.getPort());
        clients.add(half);
        half.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: a\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        half.setSoTimeout(60_000);
        assertThat(half.getInputStream().read()).as("closed by the server without an answer").isEqualTo(-1);
    }

    /**
     * Past the cap, a new connection closes the one that has waited longest for its request: idle
     * connections cannot keep a scrape out.
     */
    @Test
    void idleConnectionsBeyondTheCapAreClosedOldestFirst() throws IOException {
        InetSocketAddress at = serve(() -> "x 1\n");
        for (int i = 0; i < 3 * MetricsEndpoint.MAX_CONNECTIONS; i++) {
            Socket idle = new Socket(at.getAddress(), at.getPort());
            idle.setSoTimeout(60_000);
            clients.add(idle);
        }
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        // the first ones were closed by the server (each read ends at once); the latest are still open
        assertThat(clients.get(0).getInputStream().read()).isEqualTo(-1);
        assertThat(clients.get(2 * MetricsEndpoint.MAX_CONNECTIONS - 1).getInputStream().read()).isEqualTo(-1);
    }

    @Test
    void closeEndsTheThreadAndTheSocket() throws Exception {
        InetSocketAddress at = serve(() -> "x 1\n");
        Socket idle = new Socket(at.getAddress(), at.getPort());
        clients.add(idle);
        assertThat(exchange(at, "GET /metrics HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        endpoint.close();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals(MetricsEndpoint.THREAD_NAME));
        idle.setSoTimeout(60_000);
        assertThat(idle.getInputStream().read()).as("open connections closed").isEqualTo(-1);
        assertThatThrownBy(() -> new Socket(at.getAddress(), at.getPort()).close()).isInstanceOf(ConnectException.class);
    }
}
