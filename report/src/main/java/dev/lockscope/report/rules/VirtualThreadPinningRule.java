package dev.lockscope.report.rules;

import dev.lockscope.core.EventNames;
import dev.lockscope.analysis.vthreads.PinningAnalysis;

import java.util.List;
import java.util.Locale;

/**
 * The site where virtual threads were pinned to their carriers longest (blocked inside
 * {@code synchronized} on JDK 21-23, or under a native frame): while pinned, a virtual thread keeps its
 * carrier from every other virtual thread. Scored by the share of the carriers' time the site held
 * pinned, so it ranks with the lock findings, which are scored by their share of wall time.
 */
final class VirtualThreadPinningRule implements Rule {
    @Override
    public String id() {
        return "virtual-thread-pinning";
    }

    @Override
    public List<String> neededEvents() {
        return List.of(EventNames.VIRTUAL_THREAD_PINNED);
    }

    @Override
    public RuleResult evaluate(RuleInput input) {
        PinningAnalysis.Result r = input.virtualThreads();
        if (r == null || r.sites().isEmpty()) {
            return RuleResult.of(id(), 0, "No virtual thread was pinned to its carrier.", null);
        }
        PinningAnalysis.PinnedSite top = r.sites().get(0);
        long capacity = Math.max(1, input.contention().durationNanos()) * Math.max(1, r.carriers());
        StringBuilder sites = new StringBuilder();
        for (PinningAnalysis.PinnedSite site : r.sites().subList(0, Math.min(3, r.sites().size()))) {
            sites.append(sites.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "`%s` (%.1f s, %d times)",
                    site.site(), site.nanos() / 1e9, site.count()));
        }
        String more = r.sites().size() > 3 ? String.format(Locale.ROOT, " and %d other sites", r.sites().size() - 3) : "";
        return RuleResult.of(id(), 100.0 * top.nanos() / capacity, String.format(Locale.ROOT,
                "Virtual threads were pinned to their carriers for %.1f s in all, in %s%s: they blocked inside "
                        + "`synchronized` or under a native frame, keeping the carrier from other virtual threads.",
                r.pinnedNanos() / 1e9, sites, more), "pinned:" + top.site());
    }
}
