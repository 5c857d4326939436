package dev.lockscope.sched;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuTimesTest {
    @Test
    void machineBusyExcludesIdleIowaitAndGuestAndStealIsApart() {
        String stat = "cpu  100 5 30 9000 40 2 3 7 11 0\ncpu0 50 2 15 4500 20 1 1 3 5 0\nintr 1 2 3\n";
        CpuTimes.Machine m = CpuTimes.parseMachine(stat);
        assertThat(m.busyTicks()).isEqualTo(100 + 5 + 30 + 2 + 3);
        assertThat(m.stealTicks()).isEqualTo(7);
        assertThat(m.apparentTicks()).isEqualTo(147);
    }

    @Test
    void threadTicksAreUtimePlusStimeEvenWithParenthesesInTheName() {
        String stat = "4242 (pool (1) x) S 1 1 1 0 -1 4194560 10 0 0 0 123 45 0 0 20 0 30 0 99 0 0";
        assertThat(CpuTimes.parseThreadTicks(stat)).isEqualTo(168);
    }

    @Test
    void readsThisMachineAndThisProcess() throws Exception {
        assertThat(CpuTimes.machine().busyTicks()).isPositive();
        assertThat(CpuTimes.threads(ProcessHandle.current().pid())).isNotEmpty();
    }
}
