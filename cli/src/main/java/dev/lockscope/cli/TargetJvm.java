package dev.lockscope.cli;

import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import dev.lockscope.core.OutputFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A running JVM found by pid, for attach and dump. Every failure is a one-line {@link UserError}. */
final class TargetJvm {
    private final long pid;
    /** The recording the agent's last answer named. */
    private Path answeredRecording;

    private TargetJvm(long pid) {
        this.pid = pid;
    }

    /** Checks that {@code pid} exists and is a HotSpot JVM before the (slow) attach handshake. */
    static TargetJvm find(long pid) {
        if (pid <= 0 || ProcessHandle.of(pid).isEmpty()) {
            throw new UserError("no process with pid " + pid);
        }
        if (pid == ProcessHandle.current().pid()) {
            throw new UserError("lockscope cannot attach to itself");
        }
        Path maps = Path.of("/proc", Long.toString(pid), "maps");
        if (Files.isReadable(maps)) {
            try {
                if (Files.lines(maps).noneMatch(l -> l.endsWith("/libjvm.so"))) {
                    throw new UserError("process " + pid + " is not a Java virtual machine");
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                // cannot tell; let the attach itself decide
            }
        }
        return new TargetJvm(pid);
    }

    /** Loads lockscope's agent into the target with {@code args}; returns when agentmain has run. */
    void loadAgent(Path agentJar, String args) {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            throw new UserError("cannot attach to pid " + pid + ": " + e.getMessage()
                    + " (is it a JDK 17+ JVM run by this user, started without -XX:+DisableAttachMechanism?)");
        }
        try {
            vm.loadAgent(agentJar.toString(), args);
        } catch (AgentLoadException | AgentInitializationException | IOException e) {
            throw new UserError("the agent could not be loaded into pid " + pid + ": " + e.getMessage());
        } finally {
            try {
                vm.detach();
            } catch (IOException ignored) {
                // the target may already be gone
            }
        }
    }

    /**
     * Sends {@code args} to lockscope's agent in the target with a reply file, and returns what follows
     * the agent's "ok" line (a table, or the recording's path); an "error: why" answer, or none,
     * is a {@link UserError} with that line.
     */
    String command(Path agentJar, String args) {
        Path reply;
        try {
            reply = replyFile();
        } catch (IOException e) {
            throw new UserError("cannot create a file for pid " + pid + "'s answer: " + e.getMessage());
        }
        try {
            loadAgent(agentJar, args + ",reply=" + reply);
            String text = Files.readString(reply);
            if (text.startsWith("error: ")) {
                throw new UserError(text.substring("error: ".length()).strip());
            }
            if (!text.startsWith("ok")) {
                throw new UserError("pid " + pid + " did not answer (its lockscope agent may be older or broken)");
            }
            int eol = text.indexOf('\n');
            String ok = eol < 0 ? text.strip() : text.substring(0, eol);
            answeredRecording = ok.startsWith("ok: ") ? Path.of(ok.substring("ok: ".length())) : null;
            return eol < 0 ? "" : text.substring(eol + 1);
        } catch (IOException e) {
            throw new UserError("cannot read pid " + pid + "'s answer: " + e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(reply);
            } catch (IOException ignored) {
                // a temp file; the agent removes old ones at its next start
            }
        }
    }

    /**
     * A new file (0600) in lockscope's directory for the agent's answer. A target run by another user (root
     * attaching) gets the file as its own to write; the directory stays ours, so it cannot put a link there.
     */
    private Path replyFile() throws IOException {
        Path reply = OutputFiles.createNew(EmbeddedJars.directory(), "lockscope-dump", ".txt", OutputFiles.OWNER_ONLY);
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            var targetUser = Files.getOwner(proc);
            if (!targetUser.equals(EmbeddedJars.currentUser())) {
                Files.setOwner(reply, targetUser);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // no /proc (macOS) or not root: the attach itself needs the same user then
        }
        return reply;
    }

    /** The recording the agent named in its last answer ({@code ok: PATH}), or null. */
    Path answeredRecording() {
        return answeredRecording;
    }

    /** The agent's current table (with {@code stop}: after stopping and writing the recording). */
    String table(Path agentJar, boolean stop) {
        return command(agentJar, stop ? "stop" : "dump");
    }

    long pid() {
        return pid;
    }
}
