package dev.lockscope.report.blame;

import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.core.Frame;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.List;
import java.util.Locale;

/** Number and key formatting shared by the blame renderers' text. */
final class BlameText {
    /** Frames of a chain key shown before "[+n]". */
    static final int CHAIN_FRAMES_SHOWN = 3;
    private static final String SEPARATOR = " <- ";

    private BlameText() {
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%6.2f%%", share * 100);
    }

    /**
     * A chain key shortened for a line of {@code width} columns, told apart from its {@code siblings} (the other
     * keys under the same parent): frames without their package, the innermost {@link #CHAIN_FRAMES_SHOWN}, and,
     * when those are the same in a sibling, the first frame where they part after an elided middle
     * ({@code a <- b <- c <- [+4] <- g [+2]}); the rest counted as "[+n]" (Hofer Fig. 4.9). Cut at the outer end
     * when still too long: the innermost frames, where the chains differ most, stay (a cut at the front hid them).
     */
    static String shortChain(String key, List<String> siblings, int width) {
        String[] parts = key.split(SEPARATOR, -1);
        int parting = 0;
        for (String other : siblings) {
            if (other.equals(key)) {
                continue;
            }
            String[] o = other.split(SEPARATOR, -1);
            int i = 0;
            while (i < parts.length && i < o.length && parts[i].equals(o[i])) {
                i++;
            }
            parting = Math.max(parting, i);
        }
        StringBuilder b = new StringBuilder();
        int shown = Math.min(CHAIN_FRAMES_SHOWN, parts.length);
        for (int i = 0; i < shown; i++) {
            b.append(i == 0 ? "" : SEPARATOR).append(frame(parts[i]));
        }
        int last = shown - 1;
        if (parting >= shown && parting < parts.length) {
            if (parting > shown) {
                b.append(SEPARATOR).append("[+").append(parting - shown).append(']');
            }
            b.append(SEPARATOR).append(frame(parts[parting]));
            last = parting;
        }
        if (last < parts.length - 1) {
            b.append(" [+").append(parts.length - 1 - last).append(']');
        }
        return b.length() <= width ? b.toString() : b.substring(0, Math.max(0, width - 3)) + "...";
    }

    /** {@code Class.method:line}, without the package; a key that is no frame ("(chain not recorded)") as it is. */
    private static String frame(String part) {
        if (part.startsWith("(") || !part.contains(".")) {
            return part;
        }
        return Frame.parse(part).withoutPackage();
    }

    static String thread(ThreadRef t) {
        return ChainView.thread(t);
    }
}
