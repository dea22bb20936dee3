// BoundedBufferIf.java: a bounded buffer whose take() waits with `if` where it needs `while`.
// Two consumers find the buffer empty and wait; the producer puts an item and notifyAll()
// wakes both. The first to get the monitor back takes the item; the second does not test the
// condition again and takes from the empty buffer, so the assertion at the start of its
// removal fails: fail assert. BoundedBufferWhile.java is the same buffer with `while`.
// expect: fail assert
public class BoundedBufferIf {
    static final int CAPACITY = 2;

    private final int[] items = new int[CAPACITY];
    private int count, in, out;

    synchronized void put(int item) throws InterruptedException {
        if (count == CAPACITY) {
            wait();
        }
        items[in] = item;
        in = (in + 1) % CAPACITY;
        count++;
        notifyAll();
    }

    synchronized int take() throws InterruptedException {
        if (count == 0) {
            wait();
        }
        assert count > 0 : "take from an empty buffer"; // fails here
        int item = items[out];
        out = (out + 1) % CAPACITY;
        count--;
        notifyAll();
        return item;
    }

    static class Producer extends Thread {
        private final BoundedBufferIf buffer;

        Producer(BoundedBufferIf buffer) {
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
        private final BoundedBufferIf buffer;
        int item;

        Consumer(BoundedBufferIf buffer) {
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
        BoundedBufferIf buffer = new BoundedBufferIf();
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
