package dev.lockscope.e2e;

import dev.lockscope.e2e.server.ReservationServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real server on virtual threads: Jetty 12 with a {@code VirtualThreadPool}, whose handler holds
 * the application's own {@code synchronized} ledger for 2 ms ({@link ReservationServer}), under the
 * agent on JDK 25, loaded from this JVM over loopback by 16 clients x 25 requests (each request
 * bounded by a 30 s timeout). Every request that reached the handler must have got through the lock
 * and been answered; a request that fails, fails the test with the server's count of requests and a
 * dump of its threads. The report's top finding must be that monitor, named by the handler's method. On JDK 25 the waiting handlers unmount, so only lockscope's instrumentation of
 * VirtualThread sees them. The same server on Jetty's platform-thread pool, on the JDK running the
 * tests (17 and 25 in CI), must lead with the same lock, its idle pool threads kept out of the findings.
 * Either way no idle wait is among the first three findings, and the text report at defaults stays under
 * 200 lines (issue 13, as {@link RealLibrariesIT} checks on the other libraries).
 */
@InJdk25Pass
class VirtualThreadServerIT {
    private static final int CLIENTS = 16;
    private static final int REQUESTS_PER_CLIENT = 25;

    @TempDir
    Path dir;

    @Test
    void topFindingIsTheHandlersOwnLock() throws Exception {
        String text = serve(VirtualThreadsIT.jdk25(), "virtual");
        assertThat(text).contains("(virtual#");
    }

    @Test
    void onPlatformThreadsTopFindingIsTheHandlersOwnLock() throws Exception {
        String text = serve(Proc.JAVA, "platform");
        assertThat(text).doesNotContain("(virtual#");
    }

    /** Runs the server under load and returns its text report, whose top finding must be the ledger. */
    private String serve(String java, String pool) throws Exception {
        Path recording = dir.resolve("server-" + pool + ".jfr");
        Proc server = Proc.start(dir, List.of(java, "-javaagent:" + Proc.AGENT_JAR + "=file=" + recording + ",report=off",
                "-cp", System.getProperty("java.class.path"), ReservationServer.class.getName(), pool));
        try {
            int port = awaitPort(server);
            // HTTP/1.1 as the server speaks it: the client's default (HTTP/2, asked for by an upgrade on each
            // new connection) adds a negotiation this test is not about
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            List<Future<Integer>> oks = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                oks.add(clients.submit(() -> {
                    int ok = 0;
                    for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                        if (get(client, port, "/reserve").statusCode() == 200) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            int served = 0;
            try {
                for (Future<Integer> f : oks) {
                    served += f.get(120, TimeUnit.SECONDS);
                }
            } catch (ExecutionException | TimeoutException e) {
                // a request that was never answered: say where the server's threads were, and which requests
                // reached the handler, so a hang under the agent can be told from a lost connection
                throw new AssertionError("a client's request failed: " + e + "\n" + serverState(server, client, port), e);
            } finally {
                clients.shutdownNow();
            }
            assertThat(served).isEqualTo(CLIENTS * REQUESTS_PER_CLIENT);
            // every request that reached the handler got through the lock and was answered (the server counts an
            // answer once its bytes are written, which may be after the client has read them: ask until it agrees)
            String all = CLIENTS * REQUESTS_PER_CLIENT + "";
            String expected = "started " + all + " reserved " + all + " answered " + all;
            String stats = get(client, port, "/stats").body().trim();
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                 !stats.equals(expected) && System.nanoTime() < deadline; ) {
                Thread.sleep(50);
                stats = get(client, port, "/stats").body().trim();
            }
            assertThat(stats).as(() -> serverState(server, client, port)).isEqualTo(expected);
        } finally {
            try (OutputStream stop = server.process.getOutputStream()) {
                stop.write('\n');
            }
            if (!server.process.waitFor(60, TimeUnit.SECONDS)) {
                server.process.destroyForcibly();
            }
        }
        assertThat(server.exitCode()).as(server.err()).isZero();
        Proc report = Proc.lockscope(dir, 120, "report", recording.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        String text = report.out();
        // issue 13's bounds, as on the other real libraries: short at defaults, no idle wait among the first three
        ReportText.assertShort(text);
        assertThat(ReportText.findings(text).get(0)).as(text).startsWith("The monitor of Object at ReservationServer$Stock.reserve")
                .contains("held in ReservationServer$Stock.reserve");
        return text;
    }

    private static HttpResponse<String> get(HttpClient client, int port, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build();
        return client.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The server's /stats and a dump of all its threads, virtual ones included ({@code jcmd Thread.dump_to_file},
     * JDK 21+; {@code Thread.print} before), for a failure's message.
     */
    private String serverState(Proc server, HttpClient client, int port) {
        StringBuilder out = new StringBuilder();
        try {
            out.append("server /stats: ").append(get(client, port, "/stats").body().trim()).append('\n');
        } catch (Exception e) {
            out.append("server /stats failed: ").append(e).append('\n');
        }
        try {
            Path dump = dir.resolve("server-threads-" + System.nanoTime() + ".txt");
            String jcmd = Path.of(server.process.info().command().orElse("java")).resolveSibling("jcmd").toString();
            String pid = Long.toString(server.process.pid());
            Process p = new ProcessBuilder(jcmd, pid, "Thread.dump_to_file", dump.toString()).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            if (Files.exists(dump)) {
                out.append("server threads:\n").append(Files.readString(dump, StandardCharsets.UTF_8));
            } else {
                p = new ProcessBuilder(jcmd, pid, "Thread.print").redirectErrorStream(true).start();
                out.append(said).append("server threads:\n")
                        .append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                p.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            out.append("no thread dump: ").append(e).append('\n');
        }
        return out.toString();
    }

    private static int awaitPort(Proc server) throws Exception {
        Pattern port = Pattern.compile("^port (\\d+)$", Pattern.MULTILINE);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = port.matcher(Files.readString(server.stdout, StandardCharsets.UTF_8));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!server.process.isAlive()) {
                throw new AssertionError("server exited: " + server.err());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("server did not print its port within 60 s: " + server.err());
    }
}
