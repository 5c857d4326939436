package dev.lockscope.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PerformanceReportTest {
    private static final String PAGE = """
            # lockscope performance

            ## Overhead

            | workload | lockscope |
            |---|---|
            | h2 | +1.0 |

            ### Raw runs

            | workload | config | repeat | ops/s |
            |---|---|---|---|
            | h2 | none | 0 | 12.5 |
            | h2 | lockscope | 0 |  |

            ## Accuracy

            ### Raw runs

            | workload | error |
            |---|---|
            | split | -0.1% |
            """;

    @Test
    void rawTablesGoToTheDataFileAndTheSummariesStay() {
        PerformanceReport.Split split = PerformanceReport.splitRawData(PAGE, "performance-data.tsv");

        assertThat(split.page()).contains("| h2 | +1.0 |", "### Raw runs",
                "In [performance-data.tsv](performance-data.tsv), block `Overhead / Raw runs`.",
                "block `Accuracy / Raw runs`.").doesNotContain("12.5", "-0.1%", "| workload | config |");
        assertThat(split.data()).contains("""

                # Overhead / Raw runs
                workload\tconfig\trepeat\tops/s
                h2\tnone\t0\t12.5
                h2\tlockscope\t0\t

                # Accuracy / Raw runs
                workload\terror
                split\t-0.1%
                """).doesNotContain("|---|", "+1.0");
    }

    @Test
    void theDataFileLiesBesideThePage() {
        assertThat(PerformanceReport.dataFileBeside(Path.of("docs/PERFORMANCE.md")))
                .isEqualTo(Path.of("docs/performance-data.tsv"));
        assertThat(PerformanceReport.dataFileBeside(Path.of("target/performance-smoke.md")))
                .isEqualTo(Path.of("target/performance-smoke-data.tsv"));
    }
}
