package dev.lockscope.e2e;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The truth of a recording's {@code monitor} and {@code wait} rows, read with the JDK's own parser and no replay:
 * the sum of the durations of its contended monitor entries, and of its waits another thread's notify ended (not
 * timed out, not {@code Thread.join} or {@code Process.waitFor}); the application's only, lockscope's own left out.
 * Together the rows' thread-time is these sums whatever order the events arrive in.
 */
record MonitorWaitTruth(long enterNanos, long notifiedWaitNanos) {

    static MonitorWaitTruth of(Path recording) throws IOException {
        long enters = 0;
        long waits = 0;
        try (RecordingFile f = new RecordingFile(recording)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("jdk.JavaMonitorEnter") && !lockscopes(e)) {
                    enters += e.getDuration().toNanos();
                } else if (type.equals("jdk.JavaMonitorWait") && !e.getBoolean("timedOut") && !lockscopes(e)) {
                    RecordedThread notifier = e.getValue("notifier");
                    RecordedThread waiter = e.getThread();
                    if (notifier != null && waiter != null && notifier.getJavaThreadId() != waiter.getJavaThreadId()
                            && !joinsOrWaitsForAProcess(e)) {
                        waits += e.getDuration().toNanos();
                    }
                }
            }
        }
        return new MonitorWaitTruth(enters, waits);
    }

    private static boolean lockscopes(RecordedEvent e) {
        return e.getStackTrace() != null && e.getStackTrace().getFrames().stream()
                .anyMatch(f -> f.getMethod().getType().getName().startsWith("dev.lockscope.agent"));
    }

    private static boolean joinsOrWaitsForAProcess(RecordedEvent e) {
        if (e.getStackTrace() == null) {
            return false;
        }
        for (RecordedFrame f : e.getStackTrace().getFrames()) {
            String m = f.getMethod().getType().getName() + "." + f.getMethod().getName();
            if (m.equals("java.lang.Thread.join") || m.equals("java.lang.ProcessImpl.waitFor")) {
                return true;
            }
        }
        return false;
    }
}
