package dev.lockscope.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13 item 2 on a real JVM: the {@code lock-table} demo creates, contends and drops a
 * {@code ReentrantLock} per lock-table entry (as Derby's lock table does), hundreds of objects in a
 * few seconds. Grouped by lock site they are the top row and the top finding; one by one, no entry
 * object has as much wait as their site.
 */
class LockSitesIT {
    @TempDir
    Path dir;

    @Test
    void shortLivedEntryMutexesAreOneTopSite() throws Exception {
        Path jfr = dir.resolve("table.jfr");
        Proc run = Proc.run(dir, 120, Proc.demoCommand("file=" + jfr, "lock-table", "--threads", "16", "--seconds", "3"));
        assertThat(run.exitCode()).as("stderr:\n%s", run.err()).isZero();
        ObjectMapper json = new ObjectMapper();

        Proc report = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json");
        assertThat(report.exitCode()).as(report.err()).isZero();
        JsonNode sites = json.readTree(report.out());
        JsonNode top = sites.get("locks").get(0);
        assertThat(top.get("site").asText()).contains("LockTableEntries.lockEntry:");
        assertThat(top.get("instances").asInt()).as("entry objects").isGreaterThan(20);
        assertThat(sites.get("rules").toString()).contains("`ReentrantLock at LockTableEntries.lockEntry:");
        JsonNode treeTop = sites.get("tree").get("children").get(0);
        assertThat(treeTop.get("key").asText()).contains("LockTableEntries.lockEntry:");
        // owner blame counts the entries the GC collected in their site too, as the table does (it once left
        // each of them a node of its own: the site's node had a fraction of the table's wait)
        assertThat(treeTop.get("nanos").longValue()).as("blamed wait of the site")
                .isGreaterThan(top.get("totalWaitNanos").longValue() * 9 / 10);

        Proc byObject = Proc.lockscope(dir, 120, "report", jfr.toString(), "--format", "json", "--instances");
        assertThat(byObject.exitCode()).as(byObject.err()).isZero();
        long siteWait = top.get("totalWaitNanos").longValue();
        long sum = 0;
        for (JsonNode lock : json.readTree(byObject.out()).get("locks")) {
            // a site row is one kind and class at one site: other locks taken there (a class-init monitor) are rows of their own
            if (lock.get("site").asText().equals(top.get("site").asText()) && lock.get("kind").equals(top.get("kind"))
                    && lock.get("className").equals(top.get("className"))) {
                assertThat(lock.get("totalWaitNanos").longValue()).isLessThan(siteWait);
                sum += lock.get("totalWaitNanos").longValue();
            }
        }
        assertThat(sum).as("the site is the sum of its objects").isEqualTo(siteWait);
    }
}
