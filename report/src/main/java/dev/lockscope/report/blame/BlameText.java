package dev.lockscope.report.blame;

import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.Locale;

/** Number and key formatting shared by the blame renderers' text. */
final class BlameText {
    /** Frames of a chain key shown before "[+n]". */
    static final int CHAIN_FRAMES_SHOWN = 3;
    private static final String SEPARATOR = " <- ";

    private BlameText() {
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%6.2f%%", share * 100);
    }

    /** A chain key shortened to its innermost frames, the rest counted as "[+n]" (Hofer Fig. 4.9). */
    static String shortChain(String key) {
        String[] parts = key.split(SEPARATOR, -1);
        if (parts.length <= CHAIN_FRAMES_SHOWN) {
            return key;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < CHAIN_FRAMES_SHOWN; i++) {
            b.append(i == 0 ? "" : SEPARATOR).append(parts[i]);
        }
        return b.append(" [+").append(parts.length - CHAIN_FRAMES_SHOWN).append(']').toString();
    }

    static String thread(ThreadRef t) {
        return ChainView.thread(t);
    }
}
