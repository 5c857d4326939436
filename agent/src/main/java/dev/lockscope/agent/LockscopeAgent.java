package dev.lockscope.agent;

import dev.lockscope.agent.boot.BlockerRegistry;
import dev.lockscope.agent.boot.ParkHooks;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
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

    private LockscopeAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        run(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        run(args, inst, true);
    }

    private static synchronized void run(String args, Instrumentation inst, boolean attached) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(args);
        } catch (IllegalArgumentException e) {
            log(e.getMessage() + "; profiling is off");
            return;
        }
        try {
            if (options.stop || options.dumpTo != null) {
                command(options);
                return;
            }
            if (session != null && !session.isStopped()) {
                log("already profiling this JVM into " + session.file());
                return;
            }
            start(options, inst, attached);
        } catch (Throwable t) {
            log("could not start: " + t + "; profiling is off");
            try {
                ParkHooks.deactivate();
            } catch (Throwable ignored) {
                // the hooks may not even be loaded
            }
        }
    }

    private static void start(AgentOptions options, Instrumentation inst, boolean attached) throws Exception {
        appendBootJar(inst);
        // The hooks read AbstractOwnableSynchronizer.exclusiveOwnerThread; java.base must open the
        // package to the bootstrap loader's unnamed module, where the hooks live.
        Module hooksModule = ParkHooks.class.getModule();
        inst.redefineModule(Object.class.getModule(), Set.of(), Map.of(), Map.of("java.util.concurrent.locks", Set.of(hooksModule)),
                Set.of(), Map.of());
        BlockerRegistry.configure(options.collectionThreshold, options.maxBlockers);
        String ownerProblem = ParkHooks.activate();
        ParkHooks.setAcquireEvents(options.acquireEvents);
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
            inst.retransformClasses(LockSupport.class, AbstractQueuedSynchronizer.class);
            if (transformer.failure() != null) {
                log("could not instrument LockSupport/AQS (" + transformer.failure() + "); only JFR's own lock events are recorded");
            }
            String virtualThreadProblem = VirtualThreadTransformer.install(inst, hooksModule);
            if (virtualThreadProblem != null) {
                log(virtualThreadProblem);
            }
        }
        if (options.reportAtExit) {
            Thread hook = new Thread(() -> {
                if (s.stopAtExit()) {
                    printTable(s, "lockscope: lock contention at JVM exit");
                }
            }, "lockscope-exit");
            Runtime.getRuntime().addShutdownHook(hook);
        } else {
            Runtime.getRuntime().addShutdownHook(new Thread(s::stopAtExit, "lockscope-exit"));
        }
        if (!options.quiet) {
            log("recording lock contention to " + s.file() + (attached ? " (attached)" : ""));
        }
    }

    private static void printTable(RecordingSession s, String title) {
        try {
            System.err.print(s.table(title));
            System.err.flush();
        } catch (Throwable t) {
            log("could not print the report: " + t);
        }
    }

    /**
     * {@code lockscope dump} ({@code dump=FILE}) and {@code lockscope attach --stop} ({@code stop,dump=FILE}):
     * the table, to this JVM's stderr and to FILE for the CLI to print.
     */
    private static void command(AgentOptions options) throws IOException {
        String text;
        if (session == null) {
            text = "lockscope: this JVM is not being profiled (start it with lockscope record or lockscope attach)\n";
        } else if (options.stop) {
            session.stop();
            text = session.table("lockscope: lock contention when profiling stopped (pid " + ProcessHandle.current().pid() + ")");
        } else {
            text = session.table("lockscope: lock contention now (dump of pid " + ProcessHandle.current().pid() + ")");
        }
        if (session != null) {
            System.err.print(text);
            System.err.flush();
        }
        if (options.dumpTo != null) {
            Files.writeString(options.dumpTo, text, StandardCharsets.UTF_8);
        }
    }

    /** Puts the embedded bootstrap jar (hooks, events, core) on the boot class path, once per JVM. */
    private static void appendBootJar(Instrumentation inst) throws IOException {
        if (bootJarAppended) {
            return;
        }
        Path tmp = Files.createTempFile("lockscope-boot", ".jar");
        try (InputStream in = LockscopeAgent.class.getResourceAsStream("/META-INF/lockscope/lockscope-boot.jar")) {
            if (in == null) {
                throw new IOException("lockscope-boot.jar missing from the agent jar");
            }
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        tmp.toFile().deleteOnExit();
        inst.appendToBootstrapClassLoaderSearch(new JarFile(tmp.toFile()));
        bootJarAppended = true;
    }

    static void log(String message) {
        System.err.println("lockscope: " + message);
    }
}
