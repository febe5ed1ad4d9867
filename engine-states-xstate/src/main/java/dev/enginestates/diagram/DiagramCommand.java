package dev.enginestates.diagram;

import dev.enginestates.Machine;
import dev.enginestates.declare.Action;
import dev.enginestates.declare.Guard;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Seconds;
import dev.enginestates.xstate.XStateExport;
import dev.enginestates.xstate.XStateImport;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line that prints a machine's diagram or its XState JSON:
 *
 * <pre>
 * diagram mermaid|dot TARGET [--active=PATH,PATH...]
 * export xstate TARGET
 * </pre>
 *
 * <p>{@code TARGET} is an XState JSON file, read with {@link XStateImport} (its guards,
 * actions and delays are kept as names, with code that refuses to run), or
 * {@code com.example.Game#FIELD}, a static field holding a {@code Machine}, a {@code StatesDef},
 * a builder-style {@code StateMachineDefinition} or an ECS {@code States}, found on the class
 * path. From this repository: {@code mvn -q -pl engine-states exec:java -Dexec.args="diagram
 * mermaid machine.json"}; a game's own machines from its module, with
 * {@code -Dexec.mainClass=dev.enginestates.diagram.DiagramCommand}.
 */
public final class DiagramCommand {
    static final String USAGE = "usage: diagram mermaid|dot TARGET [--active=PATH,PATH...]\n"
            + "       export xstate TARGET\n"
            + "TARGET: an XState JSON file (read with XStateImport; its guards, actions and delays stay names), or\n"
            + "        com.example.Game#FIELD, a static field holding a Machine, a StatesDef, a StateMachineDefinition or a States";

    private DiagramCommand() {
    }

    /**
     * Prints what the arguments ask for on standard output, or an error on standard error, and
     * exits with the status {@link #run} returns.
     *
     * @param args {@code diagram mermaid|dot TARGET [--active=...]} or {@code export xstate TARGET}
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        System.out.flush();
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs one command.
     *
     * @param args the command's words, as {@link #main} takes them
     * @param out  where the diagram or the JSON is printed
     * @param err  where an error or the usage is printed
     * @return 0 when done; 1 when the target cannot be read or drawn (the message says why); 2 for a
     *         command that is not one of these (the usage is printed)
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> words = new ArrayList<>(Arrays.asList(args));
        if (words.size() == 1 && (words.get(0).equals("-h") || words.get(0).equals("--help"))) {
            out.println(USAGE);
            return 0;
        }
        List<String> active = new ArrayList<>();
        for (int i = words.size() - 1; i >= 0; i--) {
            if (words.get(i).startsWith("--active=")) {
                for (String p : words.remove(i).substring("--active=".length()).split(",")) {
                    if (!p.isBlank()) {
                        active.add(p.strip());
                    }
                }
            }
        }
        String command = words.size() == 3 ? words.get(0) + " " + words.get(1) : "";
        boolean draw = command.equals("diagram mermaid") || command.equals("diagram dot");
        if (!draw && !command.equals("export xstate") || !draw && !active.isEmpty()) {
            err.println("not a command: " + String.join(" ", args));
            err.println(USAGE);
            return 2;
        }
        try {
            Machine<?> machine = load(words.get(2));
            String text = command.equals("diagram mermaid") ? Diagrams.mermaid(machine, active)
                    : command.equals("diagram dot") ? Diagrams.dot(machine, active)
                    : XStateExport.toJson(machine);
            out.print(text);
            return 0;
        } catch (TargetException | MachineException e) {
            err.println(e.getMessage());
            return 1;
        }
    }

    /** What a target names, as a machine. */
    static Machine<?> load(String target) {
        Path file = null;
        try {
            file = Path.of(target);
        } catch (InvalidPathException notAPath) {
            // a class and its field, such as com.example.Game#FIELD, on a file system that refuses '#'
        }
        if (file != null && Files.isRegularFile(file)) {
            return read(file);
        }
        int hash = target.indexOf('#');
        if (hash <= 0 || hash == target.length() - 1) {
            throw new TargetException("'" + target + "' is neither a file nor com.example.Game#FIELD; expected an XState JSON"
                    + " file or a class and its static field");
        }
        return field(target.substring(0, hash), target.substring(hash + 1));
    }

    private static Machine<?> read(Path file) {
        XStateImport<Object> importer = XStateImport.withContext(Object::new)
                .guards(name -> placeholder("guard", name))
                .actions(name -> placeholder("action", name))
                .delays(name -> placeholder("delay", name));
        try {
            return importer.read(file);
        } catch (IOException e) {
            throw new TargetException("cannot read " + file + ": " + e.getMessage());
        } catch (InvalidMachineException e) {
            throw new TargetException(file + ": " + e.getMessage());
        }
    }

    /** Code that stands for a name in a diagram or an export, and refuses to run. */
    @SuppressWarnings("unchecked")
    private static <T> T placeholder(String what, String name) {
        String message = what + " '" + name + "' was read from JSON by the diagram command; its code is not supplied";
        if (what.equals("guard")) {
            return (T) (Guard<Object>) (ctx, event) -> {
                throw new UnsupportedOperationException(message);
            };
        }
        if (what.equals("action")) {
            return (T) (Action<Object>) (ctx, event) -> {
                throw new UnsupportedOperationException(message);
            };
        }
        return (T) (Seconds<Object>) ctx -> {
            throw new UnsupportedOperationException(message);
        };
    }

    private static Machine<?> field(String className, String fieldName) {
        Class<?> type;
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            type = Class.forName(className, true, loader != null ? loader : DiagramCommand.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new TargetException("class '" + className + "' is not on the class path (" + e + "); expected"
                    + " com.example.Game#FIELD with the game's classes on the class path");
        }
        Object value;
        try {
            Field f = type.getDeclaredField(fieldName);
            if (!Modifier.isStatic(f.getModifiers())) {
                throw new TargetException(className + "#" + fieldName + " is not static; expected a static field holding a machine");
            }
            f.trySetAccessible();
            value = f.get(null);
        } catch (NoSuchFieldException e) {
            List<String> fields = new ArrayList<>();
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) {
                    fields.add(f.getName());
                }
            }
            throw new TargetException("class '" + className + "' has no field '" + fieldName + "'; its static fields: " + fields);
        } catch (IllegalAccessException e) {
            throw new TargetException(className + "#" + fieldName + " cannot be read (" + e.getMessage() + "); make it public or"
                    + " open its package");
        }
        if (value instanceof Machine) {
            return (Machine<?>) value;
        }
        // StatesDef, StateMachineDefinition, the ECS States: each hands out the machine it compiles to
        if (value != null) {
            try {
                Method m = value.getClass().getMethod("machine");
                Object machine = m.invoke(value);
                if (machine instanceof Machine) {
                    return (Machine<?>) machine;
                }
            } catch (ReflectiveOperationException | RuntimeException ignored) {
                // not a definition: reported below
            }
        }
        throw new TargetException(className + "#" + fieldName + " holds " + (value == null ? "null" : "a " + value.getClass().getName())
                + "; expected a Machine, a StatesDef, a StateMachineDefinition or a States");
    }

    /** A target that cannot be read: the command prints the message alone. */
    static final class TargetException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TargetException(String message) {
            super(message);
        }
    }
}
