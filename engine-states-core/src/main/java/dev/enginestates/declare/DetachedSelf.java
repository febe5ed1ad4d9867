package dev.enginestates.declare;


import java.util.function.Supplier;

/**
 * The {@link Self} of code that runs on no entity: a machine on a plain object, or a record no
 * face has taken yet. It has no entity and no world; {@link #get} and {@link #has} read the
 * context; adding, removing and sending to another entity are refused with a sentence saying why.
 */
public final class DetachedSelf implements Self {
    private final String what;
    private final Object machine;
    private final Supplier<?> context;

    /**
     * A self over a context alone.
     *
     * @param what    names the machine in messages ({@code "machine 'door'"})
     * @param machine what {@link #machine()} returns, or {@code null}
     * @param context reads the current context
     */
    public DetachedSelf(String what, Object machine, Supplier<?> context) {
        this.what = what;
        this.machine = machine;
        this.context = context;
    }

    @Override
    public <E> E entity() {
        return null;
    }

    @Override
    public <W> W world() {
        return null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <M> M machine() {
        return (M) machine;
    }

    @Override
    public boolean attached() {
        return false;
    }

    @Override
    public void add(Object component) {
        throw noEntity("add " + component);
    }

    @Override
    public boolean remove(Class<?> type) {
        throw noEntity("remove " + type.getSimpleName());
    }

    @Override
    public boolean send(Object entity, String event) {
        throw noEntity("send '" + event + "' to another entity");
    }

    @Override
    public boolean send(Object entity, Event event) {
        throw noEntity("send '" + event.type() + "' to another entity");
    }

    @Override
    public <T> T get(Class<T> type) {
        Object ctx = context.get();
        return type.isInstance(ctx) ? type.cast(ctx) : null;
    }

    @Override
    public boolean has(Class<?> type) {
        return type.isInstance(context.get());
    }

    @Override
    public Object handle() {
        return context.get();
    }

    private IllegalStateException noEntity(String action) {
        return new IllegalStateException(what + " cannot " + action + ": it runs on no entity; expected a machine spawned in a"
                + " world (self.attached())");
    }

    @Override
    public String toString() {
        return "Self(" + what + ", no entity)";
    }
}
