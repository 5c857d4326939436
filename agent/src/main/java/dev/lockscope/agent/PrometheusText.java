package dev.lockscope.agent;

import java.util.HashSet;
import java.util.Set;

/**
 * Prometheus' text exposition format, version 0.0.4 (the format every Prometheus server reads): one
 * {@code # HELP} and one {@code # TYPE} line per metric family, then its samples
 * {@code name{label="value",...} value}, all samples of a family together, lines ended by {@code \n}.
 * Escaping per the format: in HELP text backslash and line feed ({@code \\}, {@code \n}); in label
 * values also the double quote ({@code \"}). Values are Go-style floats ({@code NaN}, {@code +Inf},
 * {@code -Inf}). Written here instead of shading a client library into the application's JVM, where
 * it could clash with the application's own copy.
 */
final class PrometheusText {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder(4096);
    private final Set<String> families = new HashSet<>();
    private String current;

    /** Starts a metric family; its samples follow. Each family once. */
    PrometheusText family(String name, String type, String help) {
        if (!validName(name)) {
            throw new IllegalArgumentException("not a Prometheus metric name: " + name);
        }
        if (!families.add(name)) {
            throw new IllegalStateException("metric family written twice: " + name);
        }
        current = name;
        out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** A sample of the current family; {@code labels} are name, value, name, value, ... */
    PrometheusText sample(double value, String... labels) {
        if (current == null) {
            throw new IllegalStateException("sample before its family");
        }
        out.append(current);
        if (labels.length > 0) {
            out.append('{');
            for (int i = 0; i + 1 < labels.length; i += 2) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labels[i]).append("=\"").append(escapeLabelValue(labels[i + 1])).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(formatValue(value)).append('\n');
        return this;
    }

    String text() {
        return out.toString();
    }

    static String escapeHelp(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }

    static String escapeLabelValue(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String formatValue(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v); // e.g. 1.5E-4: Prometheus parses Go's and Java's exponent forms alike
    }

    /** {@code [a-zA-Z_:][a-zA-Z0-9_:]*} */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
            if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }
}
