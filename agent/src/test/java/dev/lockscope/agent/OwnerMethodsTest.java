package dev.lockscope.agent;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The live owner-method tally stays bounded and keeps tallying new blockers once full. */
class OwnerMethodsTest {
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
}
