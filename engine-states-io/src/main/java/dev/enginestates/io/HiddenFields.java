package dev.enginestates.io;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.AnnotationIntrospector;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.ser.impl.UnknownSerializer;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fields of a context type that Jackson will not write: state that a checkpoint, a dump, a log
 * or a stream frame would silently drop. Jackson writes an object whose state sits in private or
 * package-private fields without getters as {@code {}}, reads that back to a fresh object, and the
 * round trip looks whole; so each instance field is matched against the properties Jackson's own
 * introspection will serialize. The classes the context holds in its properties (in collections,
 * maps, arrays and optionals too) are looked at the same way, by their declared types.
 */
final class HiddenFields {
    /** How deep into held classes the search goes; a context nests far less, and cycles are cut by type anyway. */
    private static final int MAX_DEPTH = 8;

    private final SerializationConfig config;
    private final SerializerProvider serializers;
    private final AnnotationIntrospector annotations;
    private final Set<Class<?>> seen = new HashSet<>();
    private final List<String> found = new ArrayList<>();

    private HiddenFields(ObjectMapper json) {
        this.config = json.getSerializationConfig();
        this.serializers = json.getSerializerProviderInstance();
        this.annotations = config.getAnnotationIntrospector();
    }

    /**
     * The hidden fields of {@code type} and of the classes its properties declare, each as its path from
     * the context ({@code lit}, {@code pocket.coins}, {@code items[].weight}) with the class that declares it
     * when that is not the context's; empty when Jackson writes every field.
     */
    static List<String> of(ObjectMapper json, Class<?> type) {
        HiddenFields search = new HiddenFields(json);
        search.walk(json.constructType(type), "", type, 0);
        return search.found;
    }

    private void walk(JavaType t, String at, Class<?> context, int depth) {
        if (t == null || depth > MAX_DEPTH) {
            return;
        }
        if (t.isContainerType() || t.isReferenceType()) {
            walk(t.getContentType(), at + "[]", context, depth + 1); // a map's keys are written as strings: its values are what is held
            return;
        }
        Class<?> raw = t.getRawClass();
        if (raw.isPrimitive() || raw.isEnum() || raw.isInterface() || Modifier.isAbstract(raw.getModifiers()) || !seen.add(raw)) {
            return; // an interface or an abstract class tells nothing of the class it will hold
        }
        BeanDescription bean = config.introspect(t);
        if (!(beanSerializer(t)) || Boolean.TRUE.equals(annotations.isIgnorableType(bean.getClassInfo()))) {
            return; // written by a serializer of its own (a JDK value, @JsonValue, @JsonSerialize): its fields are not Jackson's to see
        }
        String prefix = at.isEmpty() ? "" : at + ".";
        Set<String> written = new HashSet<>();
        List<BeanPropertyDefinition> properties = bean.findProperties();
        for (BeanPropertyDefinition p : properties) {
            if (p.getAccessor() != null) {
                written.add(p.getInternalName());
                if (p.hasField()) {
                    written.add(p.getField().getName());
                }
            }
        }
        if (bean.findAnyGetter() == null) { // an any-getter writes a map field's entries as properties: which field it reads is its own
            Set<String> ignored = new HashSet<>(bean.getIgnoredPropertyNames());
            ignored.addAll(config.getDefaultPropertyIgnorals(raw, bean.getClassInfo()).findIgnoredForSerialization());
            for (Class<?> k = raw; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    int mod = f.getModifiers();
                    JsonIgnore ignore = f.getAnnotation(JsonIgnore.class);
                    if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic() || (ignore != null && ignore.value())
                            || ignored.contains(f.getName()) || written.contains(f.getName())) {
                        continue;
                    }
                    found.add(prefix + f.getName() + (k == context ? "" : " (of " + k.getName() + ")"));
                }
            }
        }
        for (BeanPropertyDefinition p : properties) {
            if (p.getAccessor() != null && annotations.findSerializer(p.getAccessor()) == null
                    && annotations.findContentSerializer(p.getAccessor()) == null) {
                walk(p.getPrimaryType(), prefix + p.getName(), context, depth + 1);
            }
        }
    }

    /** Whether Jackson writes {@code t} property by property (or as {@code {}}, seeing none); a type it cannot write at all is the round trip's to report. */
    private boolean beanSerializer(JavaType t) {
        try {
            JsonSerializer<Object> s = serializers.findValueSerializer(t);
            return s instanceof BeanSerializerBase || s instanceof UnknownSerializer; // the latter: a class with no property, written {}
        } catch (JsonMappingException | RuntimeException e) {
            return false;
        }
    }
}
