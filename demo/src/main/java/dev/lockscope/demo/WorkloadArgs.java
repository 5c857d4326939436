package dev.lockscope.demo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A workload's own options after the common ones: {@code --name value} numbers and {@code --flag}s. */
final class WorkloadArgs {
    private final Map<String, String> values = new HashMap<>();

    /** @throws IllegalArgumentException for an option not in {@code numbers} or {@code flags}, or a missing value */
    WorkloadArgs(List<String> args, Set<String> numbers, Set<String> flags) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (flags.contains(a)) {
                values.put(a, "true");
            } else if (numbers.contains(a)) {
                if (i + 1 == args.size()) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                values.put(a, args.get(++i));
            } else {
                throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
        }
    }

    long number(String name, long defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0) {
                throw new IllegalArgumentException(name + " must not be negative: " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number: '" + v + "'");
        }
    }

    boolean flag(String name) {
        return values.containsKey(name);
    }
}
