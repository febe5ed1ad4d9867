package dev.enginestates.samples.docs;

import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * The code of docs/metrics.md, compiled: engine-states' flight recorder events streamed, in the
 * game's own process, into whatever metrics the game keeps ({@code SamplesFlightRecordingTest}
 * runs it).
 */
public final class Metrics {
    private Metrics() {
    }

    /**
     * Hands each machine type's share of every step to {@code timer} (a metrics library's timer,
     * a log line, a counter of the game's own) until the stream is closed.
     */
    public static RecordingStream machineTimes(BiConsumer<String, Duration> timer) {
        RecordingStream stream = new RecordingStream();
        stream.enable("dev.enginestates.MachineStep");
        stream.enable("dev.enginestates.Failure");
        stream.onEvent("dev.enginestates.MachineStep", e -> timer.accept(e.getString("machine"), e.getDuration()));
        stream.onEvent("dev.enginestates.Failure", e -> timer.accept(e.getString("machine") + ".failed", Duration.ZERO));
        stream.startAsync();
        return stream;
    }
}
