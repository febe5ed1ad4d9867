package dev.enginestates.scxml;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SCXML's {@code null} datamodel: no variables; a condition is {@code In('id')}, possibly
 * negated with {@code !}. Anything else is an error ({@code error.execution}, and the condition
 * is false).
 */
public final class NullDatamodel extends Datamodel {
    private static final Pattern IN = Pattern.compile("\\s*(!?)\\s*In\\(\\s*['\"]([^'\"]+)['\"]\\s*\\)\\s*");
    private Predicate<String> in = id -> false;

    /** Makes one; the importer makes one per machine instance. */
    public NullDatamodel() {
    }

    @Override
    protected void start(String sessionId, String name, String ioProcessorLocation, Predicate<String> in) {
        this.in = in;
    }

    @Override
    public void declare(String id, Object value) {
        throw none("<data id=\"" + id + "\">");
    }

    @Override
    public boolean isDeclared(String id) {
        return false;
    }

    @Override
    public Object evaluate(String expression) {
        throw none("the expression '" + expression + "'");
    }

    @Override
    public boolean test(String condition) {
        Matcher m = IN.matcher(condition);
        if (!m.matches()) {
            throw none("the condition '" + condition + "' (only In('state'))");
        }
        return m.group(1).isEmpty() == in.test(m.group(2));
    }

    @Override
    public void assign(String location, Object value) {
        throw none("<assign location=\"" + location + "\">");
    }

    @Override
    public void run(String script) {
        throw none("<script>");
    }

    @Override
    public Object content(String text) {
        return text;
    }

    @Override
    public List<Object> items(String arrayExpression) {
        throw none("<foreach>");
    }

    @Override
    protected void bindEvent(ScxmlEvent event) {
        // the null datamodel has no _event
    }

    @Override
    protected Map<String, Object> variables() {
        return Map.of();
    }

    @Override
    protected void restoreVariables(Map<String, Object> variables) {
        if (!variables.isEmpty()) {
            throw none("variables " + variables.keySet());
        }
    }

    private static DatamodelException none(String what) {
        return new DatamodelException("the null datamodel cannot evaluate " + what, null);
    }
}
