package dev.lockscope.analysis.scale;

/**
 * The software layers of Guerin et al., top-down: a hindrance in an upper layer "is
 * more likely to hide" the ones below (§III), so they are searched in this order. The six
 * layers are those the paper's findings fall in (bL15, bL247 and §VI).
 */
public enum Layer {
    APPLICATION("application", "the application's own code"),
    MIDDLEWARE("middleware", "frameworks and libraries (well-known package prefixes, plus --middleware)"),
    JDK("JDK", "pure-Java class library code: java., javax., jdk., sun., com.sun."),
    NATIVE("native JDK", "native methods of the class library"),
    JVM("JVM", "GC, JIT compiler and VM threads"),
    OS("OS", "preemption and steal: the scheduler, not a lock");

    private final String label;
    private final String description;

    Layer(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** The name used in text and JSON. */
    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** Code the user can change: application and middleware frames name "who holds it". */
    public boolean isUserCode() {
        return this == APPLICATION || this == MIDDLEWARE;
    }
}
