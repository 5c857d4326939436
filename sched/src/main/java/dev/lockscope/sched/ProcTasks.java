package dev.lockscope.sched;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads /proc/&lt;pid&gt;/task: thread ids, names (comm, at most 15 characters) and run states. */
public final class ProcTasks {
    private final Path taskDir;

    public ProcTasks(long pid) {
        this.taskDir = Path.of("/proc", Long.toString(pid), "task");
    }

    public boolean exists() {
        return Files.isDirectory(taskDir);
    }

    public List<Integer> tids() {
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> d = Files.newDirectoryStream(taskDir)) {
            for (Path p : d) {
                tids.add(Integer.parseInt(p.getFileName().toString()));
            }
        } catch (IOException | RuntimeException e) {
            // the process exited: no threads
        }
        return tids;
    }

    public Map<Integer, String> names() {
        Map<Integer, String> names = new HashMap<>();
        for (int tid : tids()) {
            String comm = comm(tid);
            if (comm != null) {
                names.put(tid, comm);
            }
        }
        return names;
    }

    public String comm(int tid) {
        try {
            return Files.readString(taskDir.resolve(tid + "/comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return null;
        }
    }

    /** Threads whose /proc state letter is R (running or runnable). */
    public Set<Integer> runnable() {
        Set<Integer> r = new HashSet<>();
        for (int tid : tids()) {
            try {
                String stat = Files.readString(taskDir.resolve(tid + "/stat"), StandardCharsets.US_ASCII);
                int close = stat.lastIndexOf(')'); // comm may contain spaces and parentheses
                if (close > 0 && stat.length() > close + 2 && stat.charAt(close + 2) == 'R') {
                    r.add(tid);
                }
            } catch (IOException e) {
                // thread exited
            }
        }
        return r;
    }

    public Path schedstat(int tid) {
        return taskDir.resolve(tid + "/schedstat");
    }
}
