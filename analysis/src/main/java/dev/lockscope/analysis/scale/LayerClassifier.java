package dev.lockscope.analysis.scale;

import dev.lockscope.core.Frame;
import dev.lockscope.core.FrameKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Puts a frame ({@code package.Class.method:line}) or a thread into a {@link Layer}.
 *
 * <p>Frames: JDK (and the recorder's own code) as {@link dev.lockscope.core.FrameClassifier} decides; a JDK frame without a line number is taken as native (JFR reports no line for
 * native methods; JDK classes otherwise all carry line tables); middleware by well-known framework
 * prefixes plus the user's; everything else is application. Threads: JVM by the HotSpot names of
 * GC, JIT and VM threads (they have no Java frames).
 */
public final class LayerClassifier {
    /** Framework and library packages seen in enterprise Java stacks (Guerin et al.'s middleware layer). */
    public static final List<String> WELL_KNOWN_MIDDLEWARE = List.of(
            "org.springframework.", "org.hibernate.", "org.apache.", "org.eclipse.jetty.", "org.glassfish.",
            "org.jboss.", "io.netty.", "io.undertow.", "io.micronaut.", "io.quarkus.", "io.vertx.",
            "io.grpc.", "io.micrometer.", "io.opentelemetry.", "com.fasterxml.", "com.google.", "com.zaxxer.",
            "com.mysql.", "org.postgresql.", "oracle.jdbc.", "org.h2.", "org.slf4j.", "ch.qos.logback.",
            "org.ehcache.", "com.hazelcast.", "org.infinispan.", "com.ibm.", "javassist.", "net.bytebuddy.",
            "kotlin.", "kotlinx.", "scala.", "akka.", "reactor.", "io.reactivex.", "org.quartz.", "freemarker.",
            "org.thymeleaf.", "com.itextpdf.", "com.lowagie.", "org.jfree.");
    /** HotSpot's names for its own threads (GC workers, JIT compilers, VM operations, JFR, service). */
    private static final List<String> JVM_THREAD_PREFIXES = List.of(
            "gc thread", "g1 ", "gc ", "pargc", "parallel gc", "vm thread", "vm periodic", "c1 compilerthread",
            "c2 compilerthread", "compilerthread", "sweeper thread", "service thread", "monitor deflation",
            "jfr ", "zdirector", "zdriver", "zstat", "zworker", "shenandoah", "conc#", "concurrent gc",
            "signal dispatcher", "notification thread", "common-cleaner", "reference handler", "finalizer",
            "attach listener");

    private final List<String> middleware;

    /** @param userMiddleware extra package prefixes to count as middleware (e.g. {@code com.acme.platform.}) */
    public LayerClassifier(List<String> userMiddleware) {
        List<String> all = new ArrayList<>(WELL_KNOWN_MIDDLEWARE);
        for (String p : userMiddleware) {
            if (!p.isBlank()) {
                all.add(p.endsWith(".") ? p : p + ".");
            }
        }
        this.middleware = List.copyOf(all);
    }

    public static LayerClassifier defaults() {
        return new LayerClassifier(List.of());
    }

    /** The layer of one frame. */
    public Layer classify(String frame) {
        Frame f = Frame.parse(frame);
        if (f.kind() == FrameKind.JDK || f.kind() == FrameKind.RUNTIME) {
            return f.line() < 0 ? Layer.NATIVE : Layer.JDK;
        }
        // User prefixes may name application sub-packages as middleware, so they win over "application".
        return startsWithAny(frame, middleware) ? Layer.MIDDLEWARE : Layer.APPLICATION;
    }

    /** {@link Layer#JVM} for the JVM's own threads, empty for threads that run Java code. */
    public Optional<Layer> classifyThread(String threadName) {
        String n = threadName.toLowerCase(Locale.ROOT);
        return startsWithAny(n, JVM_THREAD_PREFIXES) ? Optional.of(Layer.JVM) : Optional.empty();
    }

    /** The innermost application or middleware frame: the user's code on this stack. */
    public Optional<String> firstUserFrame(List<String> frames) {
        for (String f : frames) {
            if (classify(f).isUserCode()) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    private static boolean startsWithAny(String s, List<String> prefixes) {
        for (String p : prefixes) {
            if (s.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
