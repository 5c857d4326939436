package dev.lockscope.agent;

import dev.lockscope.core.FrameClassifier;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which classes deep mode instruments: {@code --deep} patterns minus {@code --deep-exclude} patterns.
 * A pattern is a class name with wildcards: {@code com.example.**} is every class in the package and
 * its subpackages, {@code com.example.*} the classes of that package only, {@code com.example.Cache*}
 * names starting so; nested classes ({@code Outer$Inner}) belong to their outer class's package.
 * The JDK's classes and lockscope's own agent are never instrumented.
 */
final class DeepSelection {

    private final List<Pattern> include;
    private final List<Pattern> exclude;
    private final String text;

    private DeepSelection(List<Pattern> include, List<Pattern> exclude, String text) {
        this.include = include;
        this.exclude = exclude;
        this.text = text;
    }

    /**
     * @param include patterns separated by {@code :}
     * @param exclude the same, or null
     * @throws IllegalArgumentException naming a malformed pattern
     */
    static DeepSelection parse(String include, String exclude) {
        List<Pattern> in = patterns(include);
        if (in.isEmpty()) {
            throw new IllegalArgumentException("agent option deep needs at least one class pattern, e.g. deep=com.example.**");
        }
        List<Pattern> out = exclude == null ? List.of() : patterns(exclude);
        return new DeepSelection(in, out, include + (exclude == null || exclude.isEmpty() ? "" : " !" + exclude));
    }

    private static List<Pattern> patterns(String joined) {
        List<Pattern> out = new ArrayList<>();
        for (String p : joined.split(":")) {
            String glob = p.trim();
            if (glob.isEmpty()) {
                continue;
            }
            if (!glob.matches("[\\w.$*]+")) {
                throw new IllegalArgumentException("deep-mode class pattern '" + glob
                        + "' may hold only letters, digits, _, $, dots and * or ** wildcards");
            }
            out.add(Pattern.compile(toRegex(glob)));
        }
        return out;
    }

    static String toRegex(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                    re.append(".*");
                    i++;
                } else {
                    re.append("[^.]*");
                }
            } else if (c == '.' || c == '$') {
                re.append('\\').append(c);
            } else {
                re.append(c);
            }
        }
        return re.toString();
    }

    /** Whether the class of this binary name ({@code com.example.Outer$Inner}) is instrumented. */
    boolean selects(String className) {
        if (FrameClassifier.isJdkOrRuntime(className)) {
            return false;
        }
        String outer = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        boolean in = false;
        for (Pattern p : include) {
            if (p.matcher(className).matches() || p.matcher(outer).matches()) {
                in = true;
                break;
            }
        }
        if (!in) {
            return false;
        }
        for (Pattern p : exclude) {
            if (p.matcher(className).matches() || p.matcher(outer).matches()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return text;
    }
}
