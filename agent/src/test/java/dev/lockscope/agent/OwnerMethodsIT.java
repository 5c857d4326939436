package dev.lockscope.agent;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The live owner-method tally stays bounded and keeps tallying new blockers once full. */
class OwnerMethodsIT {
    @Test
    void aFullTallyDropsItsLeastReleasedBlockersForANewOne() {
        OwnerMethods owners = new OwnerMethods();
        for (int i = 0; i < 100; i++) {
            owners.count("app.Hot@1", "app.Store.save");
        }
        for (int i = 1; i < OwnerMethods.MAX_BLOCKERS; i++) {
            owners.count("app.Entry@" + Integer.toHexString(0x1000 + i), "app.Table.lock");
        }
        assertThat(owners.blockers()).isEqualTo(OwnerMethods.MAX_BLOCKERS);

        owners.count("app.Late@2", "app.Cache.put");

        assertThat(owners.blockers()).isLessThanOrEqualTo(OwnerMethods.MAX_BLOCKERS / 2 + 1);
        assertThat(owners.shares("app.Late", "2")).extracting(e -> e.getKey()).containsExactly("app.Cache.put");
        assertThat(owners.shares("app.Hot", "1")).extracting(e -> e.getKey()).containsExactly("app.Store.save");
    }

    /** From recorded events: each release counted under its site, whether its stack was walked or looked up. */
    @Test
    void recordedReleasesAreTalliedByTheirApplicationMethod() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("releases", ".jfr");
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable("example.Release").withStackTrace();
            recording.start();
            example.Releases.save(50);
            example.Releases.load(30);
            recording.stop();
            recording.dump(file);
        }
        OwnerMethods owners = new OwnerMethods();
        for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(file)) {
            owners.accept(e);
        }
        java.nio.file.Files.delete(file);
        assertThat(owners.shares("app.Store", "2a")).containsExactly(
                java.util.Map.entry("example.Releases.save", 50 / 80.0), java.util.Map.entry("example.Releases.load", 30 / 80.0));
    }
}
