package dev.lockscope.report.rules;

import dev.lockscope.core.EventNames;
import dev.lockscope.analysis.vthreads.PinningAnalysis;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Periods in which every carrier of the virtual-thread scheduler was held by a pinned virtual thread:
 * no other virtual thread could run then, whatever it waited for. Scored by the share of wall time
 * the program spent so.
 */
final class CarrierStarvationRule implements Rule {
    @Override
    public String id() {
        return "carrier-starvation";
    }

    @Override
    public List<String> neededEvents() {
        return List.of(EventNames.VIRTUAL_THREAD_PINNED);
    }

    @Override
    public RuleResult evaluate(RuleInput input) {
        PinningAnalysis.Result r = input.virtualThreads();
        if (r == null || r.starved().isEmpty()) {
            String why = r != null && r.carriers() == 0 ? " (the recording does not tell how many carriers there were)" : "";
            return RuleResult.of(id(), 0, "The carriers of virtual threads were never all pinned at once" + why + ".", null);
        }
        PinningAnalysis.StarvedPeriod longest = r.starved().stream()
                .max(Comparator.comparingLong(PinningAnalysis.StarvedPeriod::nanos)).orElseThrow();
        return RuleResult.of(id(), 100.0 * r.starvedNanos() / Math.max(1, input.contention().durationNanos()),
                String.format(Locale.ROOT, "All %d carriers of the virtual-thread scheduler were pinned for %.1f s in %d "
                                + "periods (longest %.0f ms): no other virtual thread could run then.",
                        r.carriers(), r.starvedNanos() / 1e9, r.starved().size(), longest.nanos() / 1e6),
                "carrier-starvation");
    }
}
