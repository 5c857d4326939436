package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.VirtualThreads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** One way of grouping contention (Hofer §4.3.2); a tree groups by an ordered list of aspects. */
public enum Aspect {
    KIND("kind") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return c.lock().kind().label();
        }
    },
    LOCK("lock") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return view.lock(c.lock());
        }
    },
    LOCK_CLASS("lock-class") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return c.lock().lockClass();
        }
    },
    WAITER_THREAD("waiter-thread") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return ConvoyWaiters.isGroup(c.waiter()) ? ConvoyWaiters.threadKey(c.waiter()) : ChainView.thread(c.waiter());
        }
    },
    /** All threads of one executor or thread factory as one group ({@link VirtualThreads#poolOf}). */
    WAITER_POOL("waiter-pool") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return ConvoyWaiters.isGroup(c.waiter()) ? c.waiter().name() : VirtualThreads.poolOf(c.waiter(), c.waiterFrames());
        }
    },
    WAITER_METHOD("waiter-method") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return view.method(c.waiterFrames());
        }
    },
    WAITER_CHAIN("waiter-chain") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return view.chain(c.waiterFrames());
        }
    },
    OWNER_THREAD("owner-thread") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return c.cause().hasOwner() ? ChainView.thread(c.cause().owner()) : c.cause().chain().missingKey();
        }
    },
    OWNER_POOL("owner-pool") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return c.cause().hasOwner() ? VirtualThreads.poolOf(c.cause().owner(), c.cause().frames()) : c.cause().chain().missingKey();
        }
    },
    OWNER_METHOD("owner-method") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            if (c.cause().frames().isEmpty()) {
                return c.cause().chain().missingKey();
            }
            // a blocker without an owner: where it was released, past its own release machinery (as the findings say)
            ReleaseSite released = c.cause().chain() == OwnerChain.NO_OWNER ? ReleaseSite.of(c.cause().frames()) : null;
            return released != null ? released.inner().function() : view.method(c.cause().frames());
        }
    },
    OWNER_CHAIN("owner-chain") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return c.cause().frames().isEmpty() ? c.cause().chain().missingKey() : view.chain(c.cause().frames());
        }
    },
    /** How the owner chain was obtained ({@link OwnerChain}: exact, sampled, ..., or why there is none). */
    CHAIN_CLASS("chain-class") {
        @Override
        public String keyOf(Contention c, ChainView view) {
            return c.cause().chain().label();
        }
    };

    /** The seed's default: the lock first, then the owner's method. */
    public static final List<Aspect> DEFAULT = List.of(LOCK, OWNER_METHOD);

    private final String label;

    Aspect(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The group this contention falls in. */
    public abstract String keyOf(Contention c, ChainView view);

    /**
     * Parses {@code "owner-method,lock-class,waiter-method"}.
     *
     * @throws IllegalArgumentException naming the unknown aspect and the known ones
     */
    public static List<Aspect> parseList(String csv) {
        List<Aspect> out = new ArrayList<>();
        for (String part : csv.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            out.add(Arrays.stream(values()).filter(a -> a.label.equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown aspect '" + part.trim() + "' (known: "
                            + Arrays.stream(values()).map(Aspect::label).collect(Collectors.joining(", ")) + ")")));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no aspect given");
        }
        return List.copyOf(out);
    }
}
