package dev.enginestates.samples;

import dev.enginestates.Machine;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.xstate.XStateImport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Objects;

/**
 * A machine read from an XState JSON file and swapped into a running world whenever the file
 * changes: a designer edits a wait or adds a state, saves, and the world's records move to the
 * edited definition between two steps ({@link StateWorld#swap(States, States)}), keeping their
 * states, waits and history. An edit the world cannot take (a file that does not parse, a state
 * removed or renamed while a machine is in it) is reported and the world keeps running the
 * definition it had.
 *
 * <p>The game's loop calls {@link #reloadIfChanged()} between steps: it asks a
 * {@link WatchService} on the file's folder whether anything happened, without waiting, so the
 * loop never blocks on the file system. {@link #reload()} re-imports at once, for tests and for
 * a "reload" key; {@link #reload(Migration)} takes an edit that renames a state machines are in,
 * saying where it went.
 *
 * @param <C> the machine's context type
 */
public final class HotReload<C> implements AutoCloseable {
    /** What a reload did. */
    public enum Kind {
        /** Nothing to do: no change to the file, or it holds the text already tried. */
        UNCHANGED,
        /** The world's records moved to the edited definition. */
        RELOADED,
        /** The edit was not taken (unreadable, not a valid machine, or a record could not be placed); nothing changed. */
        REFUSED
    }

    /**
     * What a reload did and why, for the game to print.
     *
     * @param kind    what happened
     * @param message a line saying so, with the import's or the swap's own message when refused
     */
    public record Outcome(Kind kind, String message) {
    }

    private final StateWorld world;
    private final Path file;
    private final XStateImport<C> importer;
    private final WatchService watcher;
    private States<C> current;
    private String lastText;

    private HotReload(StateWorld world, Path file, XStateImport<C> importer, States<C> first, String text, WatchService watcher) {
        this.world = world;
        this.file = file;
        this.importer = importer;
        this.current = first;
        this.lastText = text;
        this.watcher = watcher;
    }

    /**
     * Imports the machine from {@code file} and starts watching the file. The world has no record
     * of it yet: the game spawns its entities with {@code current().trait()}.
     *
     * @param <C>      the machine's context type
     * @param world    the world whose records later reloads move
     * @param file     the XState JSON file
     * @param importer the import that supplies the code the JSON names (its guards, actions, delays)
     * @return the reloader, holding the file's machine as {@link #current()}
     * @throws IOException if the file cannot be read or its folder watched
     * @throws dev.enginestates.declare.InvalidMachineException if the file is not a valid machine: a first definition is needed
     */
    public static <C> HotReload<C> start(StateWorld world, Path file, XStateImport<C> importer) throws IOException {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(importer, "importer");
        Path at = file.toAbsolutePath().normalize();
        String text = Files.readString(at);
        States<C> first = States.of(importer.parse(text));
        WatchService watcher = at.getFileSystem().newWatchService();
        try {
            // the folder, not the file: an editor that saves by writing a new file and renaming it creates the name again
            at.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
        } catch (IOException | RuntimeException e) {
            watcher.close();
            throw e;
        }
        return new HotReload<>(world, at, importer, first, text, watcher);
    }

    /**
     * The definition the world's records have now: the file's last edit that was taken.
     *
     * @return the current binding, for spawning, sending and tag queries
     */
    public States<C> current() {
        return current;
    }

    /**
     * The file watched.
     *
     * @return its absolute path
     */
    public Path file() {
        return file;
    }

    /**
     * Reloads when the watcher saw the file written since the last call; returns at once otherwise.
     * Call it between steps, on the world's thread.
     *
     * @return {@link Kind#UNCHANGED} when the file was not touched, else what {@link #reload()} did
     */
    public Outcome reloadIfChanged() {
        boolean touched = false;
        for (WatchKey key = watcher.poll(); key != null; key = watcher.poll()) {
            for (WatchEvent<?> event : key.pollEvents()) {
                // OVERFLOW: events were lost, the file may be among them
                touched |= event.kind() == StandardWatchEventKinds.OVERFLOW || file.getFileName().equals(event.context());
            }
            key.reset();
        }
        return touched ? reload() : new Outcome(Kind.UNCHANGED, file.getFileName() + ": not changed");
    }

    /**
     * Re-imports the file and swaps the world's records to it, all or nothing. The text last tried
     * is not tried again (an editor's save often tells of two writes), nor is an empty file, which
     * is most often one being written.
     *
     * @return what happened, with a line saying so
     */
    public Outcome reload() {
        return reload(null, false);
    }

    /**
     * Re-imports the file and swaps the world's records to it through {@code mapping}: for an edit
     * that renames or removes a state machines are in, which a plain reload refuses. The file is
     * read even when its text was tried before.
     *
     * @param mapping where the running definition's states go, {@code Migration.from(v)} of its version {@code v}
     * @return what happened, with a line saying so
     */
    public Outcome reload(Migration mapping) {
        return reload(Objects.requireNonNull(mapping, "mapping"), true);
    }

    private Outcome reload(Migration mapping, boolean evenIfSame) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            return refused("cannot be read (" + e + ")");
        }
        if (text.isBlank() || (text.equals(lastText) && !evenIfSame)) {
            return new Outcome(Kind.UNCHANGED, file.getFileName() + ": " + (text.isBlank() ? "empty, not read (being written?)"
                    : "the same text as before"));
        }
        lastText = text;
        Machine<C> edited;
        try {
            edited = importer.parse(text);
        } catch (MachineException e) {
            return refused("is not a valid machine: " + e.getMessage());
        }
        States<C> next = States.of(edited);
        String was = current.machine().fingerprint();
        int moved;
        try {
            moved = world.swap(current, next, mapping);
        } catch (MachineException e) {
            // the same version has no migration: every state a machine is in must keep its path, unless a mapping says where it went
            return refused("cannot take the place of the running definition: " + e.getMessage() + (mapping != null ? ""
                    : "\n  an edit may rename or remove a state only while no machine is in it: undo that part, save again once"
                    + " they have left it, or reload with a mapping (Migration.from(" + current.machine().version() + ").rename(...))"));
        }
        current = next;
        return new Outcome(Kind.RELOADED, file.getFileName() + ": reloaded; " + moved + " records of '" + edited.id()
                + "' run the edited definition (fingerprint " + was + " -> " + edited.fingerprint() + ")");
    }

    private Outcome refused(String why) {
        return new Outcome(Kind.REFUSED, file.getFileName() + " " + why + "\n  the world keeps running the definition it had"
                + " (fingerprint " + current.machine().fingerprint() + ")");
    }

    /** Stops watching the file. */
    @Override
    public void close() {
        try {
            watcher.close();
        } catch (IOException e) {
            // nothing more to watch either way
        }
    }
}
