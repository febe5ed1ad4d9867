package dev.enginestates;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** Runs code under a JDK Flight Recorder recording and reads back engine-states' events. */
public final class Flights {
    private Flights() {
    }

    /**
     * The engine-states events ({@code dev.enginestates.*}) recorded while {@code work} ran.
     *
     * @param settings enables the events wanted (a recording enables none by itself)
     * @param work     what to record
     * @return the events, in the file's order
     */
    public static List<RecordedEvent> record(Consumer<Recording> settings, Runnable work) {
        try (Recording r = new Recording()) {
            settings.accept(r);
            r.start();
            work.run();
            r.stop();
            Path file = Files.createTempFile("engine-states", ".jfr");
            try {
                r.dump(file);
                return RecordingFile.readAllEvents(file).stream()
                        .filter(e -> e.getEventType().getName().startsWith("dev.enginestates."))
                        .collect(Collectors.toList());
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The events of one type.
     *
     * @param events what {@link #record} returned
     * @param name   the event's name without {@code dev.enginestates.}
     * @return those named so
     */
    public static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals("dev.enginestates." + name)).collect(Collectors.toList());
    }
}
