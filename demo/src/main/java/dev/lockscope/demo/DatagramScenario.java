package dev.lockscope.demo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Real JDK code under contention (issue 16): {@code DatagramChannel.send} from several threads on one
 * channel, which serialises senders on its write {@code ReentrantLock}. Nobody holds the lock long; much
 * of the waiting is a woken sender waiting for a CPU (a hand-off gap), which the blame must name.
 * Sends to a local port nobody reads (UDP: the datagrams are dropped).
 */
final class DatagramScenario implements Scenario {
    private final int threads;

    DatagramScenario(int threads) {
        this.threads = threads;
    }

    @Override
    public void run(double seconds) throws InterruptedException {
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel channel = DatagramChannel.open()) {
            InetSocketAddress target = (InetSocketAddress) sink.getLocalAddress();
            AtomicBoolean stop = new AtomicBoolean();
            Timeline tl = new Timeline();
            for (int i = 0; i < threads; i++) {
                tl.start("datagram-" + i, 0, () -> {
                    ByteBuffer payload = ByteBuffer.allocate(512);
                    while (!stop.get()) {
                        payload.clear();
                        try {
                            channel.send(payload, target);
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
            }
            tl.at((long) (seconds * 1000));
            stop.set(true);
            tl.join();
        } catch (IOException e) {
            throw new IllegalStateException("datagram channel: " + e.getMessage(), e);
        }
    }
}
