// BoundedBufferWhile.java: the bounded buffer of BoundedBufferIf.java with the waits in `while`
// loops, as Object.wait's documentation asks: a thread woken by notifyAll() tests its
// condition again and waits once more if another thread got there first. Two consumers take
// one item each of the two the producer puts, in every schedule, and every thread ends (no
// deadlock): pass.
// expect: pass
// states: 10605, transitions: 23507
public class BoundedBufferWhile {
    static final int CAPACITY = 2;

    private final int[] items = new int[CAPACITY];
    private int count, in, out;

    synchronized void put(int item) throws InterruptedException {
        while (count == CAPACITY) {
            wait();
        }
        items[in] = item;
        in = (in + 1) % CAPACITY;
        count++;
        notifyAll();
    }

    synchronized int take() throws InterruptedException {
        while (count == 0) {
            wait();
        }
        assert count > 0 : "take from an empty buffer";
        int item = items[out];
        out = (out + 1) % CAPACITY;
        count--;
        notifyAll();
        return item;
    }

    static class Producer extends Thread {
        private final BoundedBufferWhile buffer;

        Producer(BoundedBufferWhile buffer) {
            this.buffer = buffer;
        }

        @Override
        public void run() {
            try {
                buffer.put(1);
                buffer.put(2);
            } catch (InterruptedException e) {
                // nobody interrupts this thread
            }
        }
    }

    static class Consumer extends Thread {
        private final BoundedBufferWhile buffer;
        int item;

        Consumer(BoundedBufferWhile buffer) {
            this.buffer = buffer;
        }

        @Override
        public void run() {
            try {
                item = buffer.take();
            } catch (InterruptedException e) {
                // nobody interrupts this thread
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        BoundedBufferWhile buffer = new BoundedBufferWhile();
        Consumer c1 = new Consumer(buffer);
        Consumer c2 = new Consumer(buffer);
        c1.start();
        c2.start();
        new Producer(buffer).start();
        c1.join();
        c2.join();
        assert c1.item + c2.item == 3 : "each item is taken once";
    }
}
