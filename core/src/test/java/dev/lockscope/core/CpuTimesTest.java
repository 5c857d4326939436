package dev.lockscope.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuTimesTest {
    @Test
    void machineBusyExcludesIdleIowaitAndGuestAndStealIsApart() throws IOException {
        String stat = "cpu  100 5 30 9000 40 2 3 7 11 0\ncpu0 50 2 15 4500 20 1 1 3 5 0\ncpu1 50 3 15 4500 20 1 2 4 6 0\n"
                + "intr 1 2 3\n";
        CpuTimes.Machine m = CpuTimes.parseMachine(stat);
        assertThat(m.busyTicks()).isEqualTo(100 + 5 + 30 + 2 + 3);
        assertThat(m.stealTicks()).isEqualTo(7);
        assertThat(m.apparentTicks()).isEqualTo(147);
        assertThat(m.cpus()).isEqualTo(2);
    }

    @Test
    void notAProcStatIsAnIOException() {
        assertThatThrownBy(() -> CpuTimes.parseMachine("intr 1 2\n")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> CpuTimes.parseMachine("cpu  1 x 3\n")).isInstanceOf(IOException.class);
    }

    @Test
    void thisMachinesProcStatReadsAsSplittingItsLinesWould() throws IOException {
        String stat = Files.readString(Path.of("/proc/stat"));
        long[] f = new long[11];
        String[] cpu = stat.lines().filter(l -> l.startsWith("cpu ")).findFirst().orElseThrow().trim().split("\\s+");
        for (int i = 1; i < cpu.length && i < f.length; i++) {
            f[i] = Long.parseLong(cpu[i]);
        }
        CpuTimes.Machine m = CpuTimes.parseMachine(stat);
        assertThat(m.busyTicks()).isEqualTo(f[1] + f[2] + f[3] + f[6] + f[7]);
        assertThat(m.stealTicks()).isEqualTo(f[8]);
        assertThat(m.cpus()).isEqualTo(stat.lines().filter(l -> l.matches("cpu\\d+ .*")).count());
    }

    @Test
    void threadTicksAreUtimePlusStimeEvenWithParenthesesInTheName() {
        String stat = "4242 (pool (1) x) S 1 1 1 0 -1 4194560 10 0 0 0 123 45 0 0 20 0 30 0 99 0 0";
        assertThat(CpuTimes.parseThreadTicks(stat)).isEqualTo(168);
        assertThat(CpuTimes.threadName(stat)).isEqualTo("pool (1) x");
    }

    @Test
    void threadTicksOfEveryThreadOfThisProcessAreFields14And15() throws Exception {
        try (var tasks = java.nio.file.Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String stat;
                try {
                    stat = java.nio.file.Files.readString(task.resolve("stat"));
                } catch (IOException exited) {
                    continue;
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                assertThat(CpuTimes.parseThreadTicks(stat)).as(stat).isEqualTo(Long.parseLong(f[11]) + Long.parseLong(f[12]));
            }
        }
        assertThatThrownBy(() -> CpuTimes.parseThreadTicks("4242 (x) S 1 1 1 0 -1 4194560 10 0 0 0 123"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsThisMachineAndThisProcess() throws Exception {
        assertThat(CpuTimes.machine(Path.of("/proc")).busyTicks()).isPositive();
        assertThat(CpuTimes.threads(Path.of("/proc/self/task"))).isNotEmpty();
    }

    @Test
    void kernelConfigSaysWhetherThreadTimesHoldSteal(@TempDir Path proc) throws IOException {
        assertThat(CpuTimes.kernelExcludesStealFromThreads(proc)).isEqualTo(CpuTimes.UNKNOWN);
        config(proc, "# CONFIG_PARAVIRT_TIME_ACCOUNTING is not set\n");
        assertThat(CpuTimes.kernelExcludesStealFromThreads(proc)).isEqualTo(CpuTimes.STEAL_IN_THREAD_TIMES);
        config(proc, "CONFIG_PARAVIRT=y\nCONFIG_PARAVIRT_TIME_ACCOUNTING=y\n");
        assertThat(CpuTimes.kernelExcludesStealFromThreads(proc)).isEqualTo(CpuTimes.STEAL_NOT_IN_THREAD_TIMES);
        Files.writeString(proc.resolve("cmdline"), "console=ttyS0 no-steal-acc quiet\n");
        assertThat(CpuTimes.kernelExcludesStealFromThreads(proc)).isEqualTo(CpuTimes.STEAL_IN_THREAD_TIMES);
    }

    private static void config(Path proc, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(proc.resolve("config.gz")))) {
            out.write(("#\n# Linux kernel configuration\n" + text).getBytes(StandardCharsets.US_ASCII));
        }
    }
}
