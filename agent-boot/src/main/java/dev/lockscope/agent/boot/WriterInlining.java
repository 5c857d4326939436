package dev.lockscope.agent.boot;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiler directive that keeps C2 from inlining JFR's field writers into the commits of lockscope's park and
 * unpark events. JFR writes a Java event field by field through {@code EventWriter.putLong} and its kin; C2 inlined
 * one varint writer per field, about 8 KB of bytecode for a {@code Park} (on JDK 17 through a generated handler's
 * {@code write}), compiled once per event class and again after each trap. Those compiles took a quarter to half a
 * second of C2 time each in the first seconds of a run, and their scratch memory made most of the agent's peak RSS
 * over JFR alone's on the pipeline (docs/PERFORMANCE.md "The pipeline again"). With the writers called rather than
 * inlined, only in the compiles of these commits (the directive matches them alone, so nothing else the application
 * or JFR compiles changes), each commit compiles to well under 1 KB and each writer once, shared.
 *
 * <p>Added as {@code jcmd Compiler.directives_add} would, through the JDK's diagnostic-command implementation
 * (jdk.management's {@code DiagnosticCommandImpl}) alone, rather than the platform MBean server, which would start
 * every platform MXBean in the application's JVM for one command. The agent opens that package to this class's
 * module, the bootstrap loader's unnamed one, not to the application's class path. Added once per JVM; where it
 * fails (a runtime without jdk.management, another JDK's internals) the commits compile as before and the agent says
 * so.
 */
public final class WriterInlining {
    /** The package the agent must open to this class's module first. */
    public static final String INTERNAL_PACKAGE = "com.sun.management.internal";
    private static boolean added;
    /** The events committed on the park and unpark paths: their commits and (JDK 17) writers are matched. */
    private static final List<Class<?>> EVENTS = List.of(ParkEvent.class, IdleParkEvent.class, UnparkEvent.class,
            ConditionUnparkEvent.class);

    private WriterInlining() {
    }

    /** Adds the directive once the event classes are registered ({@link HookActivation#activate}); returns null, or why not. */
    public static synchronized String apply() {
        if (added) {
            return null;
        }
        Path file = null;
        try {
            ClassLoader platform = ClassLoader.getPlatformClassLoader();
            Class.forName("com.sun.management.internal.PlatformMBeanProviderImpl", true, platform); // loads its native library
            Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl", true, platform);
            Method instance = impl.getDeclaredMethod("getDiagnosticCommandMBean");
            instance.setAccessible(true);
            Method execute = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
            execute.setAccessible(true);
            file = Files.createTempFile("lockscope-directive", ".json");
            Files.write(file, directive(handlers()).getBytes(StandardCharsets.UTF_8));
            String out = String.valueOf(execute.invoke(instance.invoke(null), "Compiler.directives_add " + file));
            added = out.contains("1 compiler directives added");
            return added ? null : out.trim();
        } catch (Exception | LinkageError e) {
            return e.toString();
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (Exception ignored) {
                    // a temporary file left behind
                }
            }
        }
    }

    /** The directive, in the JSON the JVM reads (docs: "Compiler Control", JEP 165). */
    static String directive(List<String> handlerClasses) {
        List<String> match = new ArrayList<>();
        match.add(methodPattern(ParkHooks.class, "commit"));
        for (Class<?> event : EVENTS) {
            match.add(methodPattern(event, "commit"));
        }
        for (String handler : handlerClasses) {
            match.add(handler.replace('.', '/') + ".write");
        }
        StringBuilder json = new StringBuilder("[{ match: [");
        for (int i = 0; i < match.size(); i++) {
            json.append(i == 0 ? "" : ", ").append('"').append(match.get(i)).append('"');
        }
        // JDK 17 has the writer in jdk.jfr.internal, JDK 21 and later in jdk.jfr.internal.event
        return json.append("], c2: { inline: [\"-jdk/jfr/internal/EventWriter.*\", \"-jdk/jfr/internal/event/EventWriter.*\"] } }]")
                .toString();
    }

    private static String methodPattern(Class<?> c, String method) {
        return c.getName().replace('.', '/') + "." + method;
    }

    /**
     * JDK 17's generated writer classes of these events (each event class's static {@code eventHandler}, set when it
     * was registered), whose {@code write} C2 also compiles on its own; none on JDK 21 and later, where the
     * writes are in the event's {@code commit}.
     */
    private static List<String> handlers() {
        List<String> names = new ArrayList<>();
        for (Class<?> event : EVENTS) {
            try {
                java.lang.reflect.Field f = event.getDeclaredField("eventHandler");
                f.setAccessible(true);
                Object handler = f.get(null);
                if (handler != null) {
                    names.add(handler.getClass().getName());
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                // JDK 21+: no handler class
            }
        }
        return names;
    }
}
