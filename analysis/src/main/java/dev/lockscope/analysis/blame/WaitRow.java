package dev.lockscope.analysis.blame;

import dev.lockscope.core.FrameClassifier;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Conditional waiting grouped by lock × waiter thread and method × notifier and where the notifier took what it
 * gave back ({@link WaitRecord#notifierTookIn}, as recorded).
 */
public record WaitRow(LockId lock, ThreadRef waiterThread, String waiterMethod, ThreadRef notifier, List<String> notifierTookIn,
                      long nanos, long count, long timedOut) {
    public static List<WaitRow> of(List<WaitRecord> waits, ChainView view) {
        Map<String, WaitRow> rows = new TreeMap<>();
        for (WaitRecord w : waits) {
            if (FrameClassifier.isProfilersOwn(w.frames())) {
                continue; // lockscope's exit thread joining its own threads, JFR's waits: not the application's
            }
            String method = view.method(w.frames());
            String key = String.join("\u0000", w.lock().label(), w.lock().kind().name(), Long.toString(w.waiter().javaTid()),
                    method, Long.toString(w.notifier().javaTid()), String.join("\n", w.notifierTookIn()));
            WaitRow old = rows.get(key);
            rows.put(key, old == null
                    ? new WaitRow(w.lock(), w.waiter(), method, w.notifier(), w.notifierTookIn(), w.nanos(), w.count(), w.timedOut())
                    : new WaitRow(old.lock, old.waiterThread, method, old.notifier, old.notifierTookIn, old.nanos + w.nanos(),
                    old.count + w.count(), old.timedOut + w.timedOut()));
        }
        List<WaitRow> out = new ArrayList<>(rows.values());
        out.sort(Comparator.comparingLong(WaitRow::nanos).reversed().thenComparing(WaitRow::lock)
                .thenComparing(r -> r.waiterThread().javaTid()).thenComparing(WaitRow::waiterMethod)
                .thenComparing(r -> r.notifier().javaTid()));
        return out;
    }
}
