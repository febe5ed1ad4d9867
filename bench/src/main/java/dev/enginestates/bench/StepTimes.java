package dev.enginestates.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The time of every operation of an iteration, for the percentiles: the {@code ...Timed}
 * benchmarks time each step (or transition) with {@code System.nanoTime()} and record it
 * here; at the end of each iteration its mean, p50, p99, p99.9 and max are JMH secondary
 * results ({@code stepTimed:p99Ns}, one value an iteration in the JSON's {@code rawData}; the
 * printed score is their sum over the iterations, so read the per-iteration values).
 *
 * <p>Why not JMH's {@code SampleTime}: it times every 2^k-th invocation (the low bits of a
 * linear congruential generator), so a step whose cost repeats every 60 steps is timed at
 * only 15 of its 60 phases and the step where every wait ends is sampled four times too
 * often or never; and when its sample buffer fills it halves every bin's count but those
 * holding one sample, so rare slow steps come to weigh up to 2^k times their share. Both
 * skew a p99 here. Timing every operation, as the XState peer does, skews nothing but adds
 * the timer's cost (about 20 ns) to each operation.
 *
 * <p>The histogram is log-linear: exact below 64 ns, then 64 buckets per power of two (under
 * 1% error); it allocates nothing while recording.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class StepTimes {
    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;

    private final long[] counts = new long[64 * SUB];
    private long n;
    private long sumNs;
    private long maxRecorded;

    /** Mean of the iteration's operations, ns. */
    public double meanNs;
    /** Median, ns. */
    public double p50Ns;
    /** 99th percentile, ns. */
    public double p99Ns;
    /** 99.9th percentile, ns. */
    public double p999Ns;
    /** Slowest operation, ns. */
    public double maxNs;

    @Setup(Level.Iteration)
    public void reset() {
        java.util.Arrays.fill(counts, 0);
        n = 0;
        sumNs = 0;
        maxRecorded = 0;
    }

    void record(long ns) {
        long v = Math.max(0, ns);
        counts[bucket(v)]++;
        n++;
        sumNs += v;
        if (v > maxRecorded) {
            maxRecorded = v;
        }
    }

    @TearDown(Level.Iteration)
    public void summarize() {
        meanNs = n == 0 ? 0 : (double) sumNs / n;
        p50Ns = percentile(0.50);
        p99Ns = percentile(0.99);
        p999Ns = percentile(0.999);
        maxNs = maxRecorded;
    }

    private double percentile(double q) {
        if (n == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return Math.min(middle(b), maxRecorded);
            }
        }
        return maxRecorded;
    }

    static int bucket(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v);
        return (e - SUB_BITS + 1) * SUB + (int) ((v >>> (e - SUB_BITS)) - SUB);
    }

    static double middle(int b) {
        if (b < SUB) {
            return b;
        }
        int e = b / SUB + SUB_BITS - 1;
        long low = (long) (SUB + b % SUB) << (e - SUB_BITS);
        return low + ((1L << (e - SUB_BITS)) - 1) / 2.0;
    }
}
