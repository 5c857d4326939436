package dev.lockscope.e2e.libs;

import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * commons-pool2 exhausted, as a connection pool is under load: {@code THREADS} threads (default 16)
 * borrow from a {@code GenericObjectPool} of 4 objects, use the object for 2 ms, return it, for
 * {@code SECONDS} seconds (default 4). Twelve threads at a time wait in {@code borrowObject} for an
 * object another thread holds: the pool's idle-object deque is the known hot lock. Prints "borrows N".
 */
public final class PoolBorrowing {
    private PoolBorrowing() {
    }

    /** A pooled "connection". */
    static final class Connection {
        long uses;
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 4;
        GenericObjectPoolConfig<Connection> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(4);
        config.setMaxIdle(4);
        config.setJmxEnabled(false);
        GenericObjectPool<Connection> pool = new GenericObjectPool<>(new BasePooledObjectFactory<>() {
            @Override
            public Connection create() {
                return new Connection();
            }

            @Override
            public PooledObject<Connection> wrap(Connection c) {
                return new DefaultPooledObject<>(c);
            }
        }, config);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long[] borrows = new long[threads];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        Connection c = pool.borrowObject();
                        try {
                            query(c);
                        } finally {
                            pool.returnObject(c);
                        }
                        borrows[id]++;
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "request-" + t);
            workers.add(w);
            w.start();
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            workers.get(t).join();
            total += borrows[t];
        }
        pool.close();
        System.out.println("borrows " + total);
    }

    /** The work done with a borrowed connection: 2 ms, as a short query's round trip. */
    static void query(Connection c) {
        c.uses++;
        LockSupport.parkNanos(2_000_000);
    }
}
