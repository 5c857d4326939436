package dev.lockscope.agent;

import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.DeepHooks;
import dev.lockscope.agent.boot.DeepSummaries;
import dev.lockscope.agent.boot.HookActivation;
import dev.lockscope.agent.boot.ParkHooks;
import dev.lockscope.agent.boot.ReleaseDelay;
import dev.lockscope.agent.boot.WriterInlining;
import dev.lockscope.core.OptionValues;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.jar.JarFile;

/**
 * Entry points of lockscope-agent.jar. {@code premain} runs for {@code -javaagent:}; {@code agentmain}
 * runs on dynamic attach, first to start profiling and later for the {@code dump} and {@code stop}
 * commands of the CLI.
 *
 * <p>Nothing here may stop the application: every failure ends in one "lockscope:" line on stderr
 * and profiling switched off, never in an exception out of premain.
 */
public final class LockscopeAgent {
    private static RecordingSession session;
    private static boolean bootJarAppended;
    private static LockTransformer transformer;
    private static Thread exitHook;

    private LockscopeAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        run(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        run(args, inst, true);
    }

    private static synchronized void run(String args, Instrumentation inst, boolean attached) {
        Path replyTo = replyPath(args);
        AgentOptions options;
        try {
            // first: the option parser and the hooks live in the boot jar (core's OptionValues)
            appendBootJar(inst);
            options = AgentOptions.parse(args);
        } catch (IllegalArgumentException e) {
            log(e.getMessage() + "; profiling is off");
            reply(replyTo, "error: " + e.getMessage());
            return;
        } catch (Throwable t) {
            log("could not start: " + t + "; profiling is off");
            reply(replyTo, "error: could not start profiling: " + t);
            return;
        }
        try {
            if (options.stop || options.dump) {
                command(options);
                return;
            }
            if (session != null && !session.isStopped()) {
                reply(replyTo, "error: pid " + ProcessHandle.current().pid() + " is already being profiled into "
                        + session.file() + " (stop that first with lockscope attach " + ProcessHandle.current().pid() + " --stop)");
                return;
            }
            if (RecordingSession.runningElsewhere()) {
                reply(replyTo, "error: pid " + ProcessHandle.current().pid() + " is already being profiled by another copy of "
                        + "lockscope's agent (a different agent jar)");
                return;
            }
            start(options, inst, attached);
            reply(replyTo, "ok: " + session.file());
        } catch (Throwable t) {
            log("could not start: " + t + "; profiling is off");
            reply(replyTo, "error: could not start profiling: " + t);
            try {
                HookActivation.deactivate();
            } catch (Throwable ignored) {
                // the hooks may not even be loaded
            }
        }
    }

    /** The CLI's answer file, for a reply even when the rest of the option string is bad. */
    private static Path replyPath(String args) {
        for (String part : args == null ? new String[0] : args.split(",")) {
            if (part.trim().startsWith("reply=")) {
                return Path.of(part.trim().substring("reply=".length()));
            }
        }
        return null;
    }

    /**
     * The answer to {@code lockscope attach/dump}: first line {@code ok...} or {@code error: why}, then
     * any table. Dynamic attach has no channel back but the agent's exit status, which the JDK turns
     * into a stack trace in this JVM's output; so the CLI passes a file.
     */
    private static void reply(Path to, String text) {
        if (to == null) {
            return;
        }
        try {
            // into the file the CLI created (private to it, or handed to this JVM's user): never a new file, never through a link
            Files.writeString(to, text.endsWith("\n") ? text : text + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            log("could not answer lockscope in " + to + ": " + e.getMessage());
        }
    }

    private static void start(AgentOptions options, Instrumentation inst, boolean attached) throws Exception {
        // The hooks read AbstractOwnableSynchronizer.exclusiveOwnerThread; java.base must open the
        // package to the bootstrap loader's unnamed module, where the hooks live.
        Module hooksModule = ParkHooks.class.getModule();
        inst.redefineModule(Object.class.getModule(), Set.of(), Map.of(), Map.of("java.util.concurrent.locks", Set.of(hooksModule)),
                Set.of(), Map.of());
        BlockerRegistry.configure(options.collectionThreshold, options.maxBlockers, options.maxBlockerMemory);
        String ownerProblem = HookActivation.activate();
        // after activate(), which registers the event classes; the package opened to the hooks' module only
        String inliningProblem = "no module jdk.management";
        Module management = ModuleLayer.boot().findModule("jdk.management").orElse(null);
        if (management != null) {
            try { // an optimisation: if the JVM refuses to open the package, profiling goes on without it
                inst.redefineModule(management, Set.of(), Map.of(),
                        Map.of(WriterInlining.INTERNAL_PACKAGE, Set.of(hooksModule)), Set.of(), Map.of());
                inliningProblem = WriterInlining.apply();
            } catch (RuntimeException e) {
                inliningProblem = e.toString();
            }
        }
        if (inliningProblem != null && !options.quiet) {
            log("JFR's writers stay inlined into the park events' commits (" + inliningProblem + ")");
        }
        if (ownerProblem != null) {
            log("cannot read lock owners (" + ownerProblem + "); owners will be recorded as unknown");
        }
        RecordingSession s = new RecordingSession(options);
        s.start();
        session = s;

        if (transformer == null) {
            // The transformer stays registered: a later retransformation of these classes by anyone
            // starts again from the original bytes and would otherwise drop the hooks.
            transformer = new LockTransformer();
            inst.addTransformer(transformer, true);
            inst.retransformClasses(LockSupport.class);
            if (transformer.failure() != null) {
                log("could not instrument LockSupport (" + transformer.failure() + "); only JFR's own lock events are recorded");
            }
            String virtualThreadProblem = VirtualThreadTransformer.install(inst, hooksModule, options.carriers && !attached);
            if (virtualThreadProblem != null) {
                log(virtualThreadProblem);
            }
        }
        if (options.deep != null) {
            startDeepMode(options.deep, inst, attached);
        }
        if (options.delayReleaseSite != null) {
            startReleaseDelay(options, inst, attached);
        }
        if (exitHook != null) {
            // the previous session's (stopped already): one hook per JVM, not one per attach/stop cycle
            Runtime.getRuntime().removeShutdownHook(exitHook);
        }
        exitHook = new Thread(() -> {
            // printed unless `lockscope attach --stop` printed it already, or `lockscope record` prints this recording's
            // report after the command; after a stop by the disk guard, too
            if ((s.stop(null) || s.stopReason() != null) && options.reportAtExit && !s.isCommandsRecording()) {
                printTable(s, "lockscope: lock contention at JVM exit", options.fullReport);
            }
        }, "lockscope-exit");
        Runtime.getRuntime().addShutdownHook(exitHook);
        if (!options.quiet) {
            log("recording lock contention to " + s.file() + (attached ? " (attached)" : ""));
        }
    }

    /**
     * Deep mode: probes in every class of the selection loaded from now on. Under {@code attach} the
     * application's classes are loaded already, and a synchronized method's flag cannot change on
     * retransformation, so deep mode needs {@code -javaagent} ({@code lockscope record}).
     */
    private static void startDeepMode(DeepSelection selection, Instrumentation inst, boolean attached) {
        if (attached) {
            log("deep mode needs the agent at JVM start (lockscope record); it is off for this attach");
            return;
        }
        if (deepTransformer != null) {
            return;
        }
        DeepSummaries.register(selection.toString());
        DeepHooks.activate(DEEP_MAX_LOCKS);
        deepTransformer = new DeepTransformer(selection);
        inst.addTransformer(deepTransformer, false);
        Thread calibration = new Thread(DeepSummaries::calibrate, "lockscope-deep-calibration");
        calibration.setDaemon(true);
        calibration.start();
    }

    /**
     * The what-if experiment: the releases in one method wait a known time, and the JVM says at exit how many
     * it delayed (lockscope whatif --measure reads that line). At JVM start only, like deep mode.
     */
    private static void startReleaseDelay(AgentOptions options, Instrumentation inst, boolean attached) {
        if (attached) {
            log("delayRelease needs the agent at JVM start; it is off for this attach");
            return;
        }
        ReleaseDelayTransformer delay = new ReleaseDelayTransformer(options.delayReleaseSite);
        ReleaseDelay.configure(options.delayReleaseNanos);
        inst.addTransformer(delay, false);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> log(String.format(java.util.Locale.ROOT,
                "release delay at %s: %d releases delayed, %d ns in all%s", options.delayReleaseSite, ReleaseDelay.releases(),
                ReleaseDelay.delayedNanos(), delay.failure() != null ? " (instrumentation failed: " + delay.failure() + ")"
                        : delay.instrumentedAny() ? "" : " (no method of that name was loaded)")), "lockscope-release-delay"));
    }

    /** Lock objects deep mode keeps statistics of at most (about 200 bytes each); further ones count at their site only. */
    private static final int DEEP_MAX_LOCKS = 100_000;
    private static DeepTransformer deepTransformer;

    /** The title of the findings above the exit table. */
    static final String FINDINGS_AT_EXIT = "lockscope: top findings at JVM exit";

    private static void printTable(RecordingSession s, String title, boolean full) {
        try {
            System.err.print(full ? s.table(title, FINDINGS_AT_EXIT) : s.shortTable(title, FINDINGS_AT_EXIT));
            System.err.flush();
        } catch (Throwable t) {
            log("could not print the report: " + t);
        }
    }

    /**
     * {@code lockscope dump} ({@code dump=FILE}) and {@code lockscope attach --stop} ({@code stop,dump=FILE}):
     * the table, to this JVM's stderr and to FILE for the CLI to print.
     */
    private static void command(AgentOptions options) {
        long pid = ProcessHandle.current().pid();
        if (session == null || (options.stop && session.isStopped())) {
            reply(options.replyTo, "error: pid " + pid + " is not being profiled (start with lockscope attach " + pid + ")");
            return;
        }
        String text;
        if (options.stop) {
            session.stop(null);
            text = session.table("lockscope: lock contention when profiling stopped (pid " + pid + ")");
        } else {
            if (options.since != null && options.dumpTo != null) {
                try {
                    session.dumpSince(options.since, options.dumpTo);
                } catch (Exception e) {
                    reply(options.replyTo, "error: could not write the last " + OptionValues.formatNanos(options.since.toNanos())
                            + " of the recording to " + options.dumpTo + ": " + e.getMessage());
                    return;
                }
            }
            text = session.table("lockscope: lock contention now (dump of pid " + pid + ")",
                    "lockscope: top findings now (dump of pid " + pid + ")");
        }
        System.err.print(text);
        System.err.flush();
        reply(options.replyTo, "ok: " + session.file() + "\n" + text);
    }

    /**
     * Puts the bootstrap jar (hooks, events, core) on the boot class path, once per JVM. The manifest's
     * {@code Boot-Class-Path} names {@value #BOOT_JAR_BESIDE} beside the agent jar: with {@code -javaagent} the JVM
     * appends it before it maps its class-data sharing archive, which then stays on for every class loader. An
     * append from here (the live phase) turns sharing off for the application's classes, and the JVM says so
     * on stderr ("Sharing is only supported for boot loader classes because bootstrap classpath has been
     * appended"), so that is done only when the jar beside is missing: an agent jar copied alone.
     */
    private static void appendBootJar(Instrumentation inst) throws IOException {
        if (bootJarAppended) {
            return;
        }
        Path agentJar = agentJar();
        byte[] embedded = embeddedBootJar(agentJar);
        if (bootClassesLoaded()) {
            // from the jar beside, which the JVM found through Boot-Class-Path: it must be this agent's own
            Path beside = agentJar == null ? null : agentJar.resolveSibling(BOOT_JAR_BESIDE);
            beside = beside != null && Files.isRegularFile(beside) ? beside : null;
            if (beside == null || !java.util.Arrays.equals(Files.readAllBytes(beside), embedded)) {
                throw new IOException("the boot class path holds lockscope classes that are not this agent's ("
                        + (beside == null ? "no " + BOOT_JAR_BESIDE + " beside the agent jar" : beside + " differs from the one in the agent jar")
                        + "); put this agent's " + BOOT_JAR_BESIDE + " beside it");
            }
            bootJarAppended = true;
            return;
        }
        removeLeftovers(Path.of(System.getProperty("java.io.tmpdir")));
        // new (O_EXCL), a random name, 0600: no one else can put code into it (core's OutputFiles is in the jar written here)
        Path tmp = Files.createTempFile(BOOT_JAR_PREFIX, ".jar");
        try {
            Files.write(tmp, embedded, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try (JarFile jar = new JarFile(tmp.toFile())) {
                inst.appendToBootstrapClassLoaderSearch(jar);
            }
            bootJarAppended = true;
        } finally {
            // The JVM opened the jar when it was appended (JVMTI AddToBootstrapClassLoaderSearch in the live
            // phase) and reads classes from the open file; on Linux and macOS the name can go at once, so
            // not even kill -9 leaves it behind. Where the open file cannot be deleted, at exit then.
            try {
                Files.delete(tmp);
            } catch (IOException stillOpen) {
                tmp.toFile().deleteOnExit();
            }
        }
    }

    /** The file name the manifest's Boot-Class-Path gives, relative to the agent jar. */
    static final String BOOT_JAR_BESIDE = "lockscope-boot.jar";

    /** Whether the boot loader finds the hooks already (the JVM appended the jar beside the agent at start). */
    private static boolean bootClassesLoaded() {
        try {
            Class.forName("dev.lockscope.agent.boot.ParkHooks", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The jar this class was loaded from, or null when it is not a jar file. */
    private static Path agentJar() {
        try {
            Path p = Path.of(LockscopeAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(p) ? p : null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The boot jar inside the agent jar, read from that file itself: a class path resource of the same name
     * (the application's class path comes first) is not this agent's.
     */
    private static byte[] embeddedBootJar(Path agentJar) throws IOException {
        String entry = "META-INF/lockscope/lockscope-boot.jar";
        if (agentJar != null) {
            try (JarFile jar = new JarFile(agentJar.toFile())) {
                var e = jar.getJarEntry(entry);
                if (e != null) {
                    try (InputStream in = jar.getInputStream(e)) {
                        return in.readAllBytes();
                    }
                }
            }
        }
        try (InputStream in = LockscopeAgent.class.getResourceAsStream("/" + entry)) {
            if (in == null) {
                throw new IOException("lockscope-boot.jar missing from the agent jar");
            }
            return in.readAllBytes();
        }
    }

    private static final String BOOT_JAR_PREFIX = "lockscope-boot";

    /**
     * Boot jars of earlier runs (lockscope before this change kept them until a normal exit, so a
     * killed JVM left them behind) and temp files of interrupted dumps, older than an hour.
     */
    static void removeLeftovers(Path tmpdir) {
        long hourAgo = System.currentTimeMillis() - 3_600_000;
        try (var files = Files.newDirectoryStream(tmpdir, "lockscope-{boot,dump}*")) {
            for (Path f : files) {
                try {
                    if (Files.isRegularFile(f) && Files.getLastModifiedTime(f).toMillis() < hourAgo) {
                        Files.delete(f);
                    }
                } catch (IOException | RuntimeException e) {
                    // another user's file, or gone meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // no temp directory to tidy
        }
    }

    static void log(String message) {
        System.err.println("lockscope: " + message);
    }
}
