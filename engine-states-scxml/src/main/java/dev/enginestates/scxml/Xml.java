package dev.enginestates.scxml;

import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small element tree with line numbers, read by the JDK's SAX parser with DTDs and external entities off
 * (so no entity expansion, no file or network read), XInclude off and no validation (a schema location is
 * not fetched). A document past the limits below is refused while it is read, before the importer walks it
 * (the importer recurses once per nesting level).
 */
final class Xml {
    static final String SCXML_NS = "http://www.w3.org/2005/07/scxml";
    /** Elements nested at most: deep enough for any chart a person writes, shallow enough for the importer's recursion. */
    static final int MAX_DEPTH = 200;
    /** Elements in a document at most. */
    static final int MAX_ELEMENTS = 100_000;
    /** Characters of text in a document at most (its scripts, expressions and content), 16 Mi. */
    static final long MAX_TEXT = 16L << 20;

    /** A document past one of the limits: where, and which. */
    static final class TooLarge extends SAXParseException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message, Locator at) {
            super(message, at);
        }
    }

    final String ns;
    final String name;
    final int line;
    final int column;
    final Map<String, String> attrs = new LinkedHashMap<>();
    /** Children in order: {@code Xml} elements and {@code String} text. */
    final List<Object> nodes = new ArrayList<>();

    private Xml(String ns, String name, int line, int column) {
        this.ns = ns == null ? "" : ns;
        this.name = name;
        this.line = line;
        this.column = column;
    }

    boolean isScxml() {
        return ns.isEmpty() || ns.equals(SCXML_NS);
    }

    boolean is(String local) {
        return isScxml() && name.equals(local);
    }

    String attr(String a) {
        return attrs.get(a);
    }

    List<Xml> elements() {
        List<Xml> out = new ArrayList<>();
        for (Object n : nodes) {
            if (n instanceof Xml x) {
                out.add(x);
            }
        }
        return out;
    }

    /** The direct text, child elements left out. */
    String text() {
        StringBuilder sb = new StringBuilder();
        for (Object n : nodes) {
            if (n instanceof String s) {
                sb.append(s);
            }
        }
        return sb.toString();
    }

    boolean hasElements() {
        return nodes.stream().anyMatch(n -> n instanceof Xml);
    }

    /** The content as text: child elements written back as XML (inline payloads). */
    String inner() {
        StringBuilder sb = new StringBuilder();
        for (Object n : nodes) {
            if (n instanceof Xml x) {
                x.write(sb);
            } else {
                sb.append(escape((String) n));
            }
        }
        return hasElements() ? sb.toString() : text();
    }

    private void write(StringBuilder sb) {
        sb.append('<').append(name);
        attrs.forEach((k, v) -> sb.append(' ').append(k).append("=\"").append(escape(v).replace("\"", "&quot;")).append('"'));
        sb.append('>');
        for (Object n : nodes) {
            if (n instanceof Xml x) {
                x.write(sb);
            } else {
                sb.append(escape((String) n));
            }
        }
        sb.append("</").append(name).append('>');
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Parses a document; a malformed one throws with its line and column. */
    static Xml parse(InputSource in) throws IOException, SAXException {
        SAXParser parser;
        try {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setXIncludeAware(false);
            parser = f.newSAXParser();
            // JDK 24 and later stop at 100 levels by default (jdk.xml.maxElementDepth) with their own message;
            // the importer's limit, checked below with the document's name and line, is the same on every JDK
            parser.setProperty("jdk.xml.maxElementDepth", String.valueOf(MAX_DEPTH + 1));
            // JDK 24 and later also stop at 100,000 characters made by entity references (&lt; and the like; a
            // document has no others, its DOCTYPE being refused); the importer's own text limit holds on every JDK
            String text = String.valueOf(MAX_TEXT + 1);
            parser.setProperty("jdk.xml.maxGeneralEntitySizeLimit", text);
            parser.setProperty("jdk.xml.totalEntitySizeLimit", text);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser cannot be configured securely", e);
        }
        Deque<Xml> open = new ArrayDeque<>();
        Xml[] root = new Xml[1];
        parser.parse(in, new DefaultHandler() {
            private Locator locator;
            private int elements;
            private long text;

            @Override
            public void setDocumentLocator(Locator l) {
                locator = l;
            }

            @Override
            public void startElement(String uri, String local, String qName, Attributes a) throws SAXException {
                if (open.size() >= MAX_DEPTH) {
                    throw new TooLarge("<" + local + "> is nested " + (open.size() + 1) + " elements deep; the importer reads "
                            + MAX_DEPTH + " at most", locator);
                }
                if (++elements > MAX_ELEMENTS) {
                    throw new TooLarge("the document has more than " + MAX_ELEMENTS + " elements, the importer's limit", locator);
                }
                Xml x = new Xml(uri, local, locator == null ? 0 : locator.getLineNumber(),
                        locator == null ? 0 : locator.getColumnNumber());
                for (int i = 0; i < a.getLength(); i++) {
                    countText(a.getValue(i).length());
                    if (a.getURI(i).isEmpty()) {
                        x.attrs.put(a.getLocalName(i), a.getValue(i));
                    }
                }
                if (open.isEmpty()) {
                    root[0] = x;
                } else {
                    flush();
                    open.peek().nodes.add(x);
                }
                open.push(x);
            }

            private void countText(int length) throws SAXException {
                text += length;
                if (text > MAX_TEXT) {
                    throw new TooLarge("the document has more than " + MAX_TEXT + " characters of text and attribute values, "
                            + "the importer's limit", locator);
                }
            }

            /**
             * The text run of the innermost open element since its last child element: the parser hands text in pieces
             * (one for each entity such as {@code &lt;}), so it is gathered here and made a string once.
             */
            private final StringBuilder run = new StringBuilder();

            /** Ends the text run: the element being read gets it as one string. */
            private void flush() {
                if (run.length() > 0) {
                    open.peek().nodes.add(run.toString());
                    run.setLength(0);
                }
            }

            @Override
            public void endElement(String uri, String local, String qName) {
                flush();
                open.pop();
            }

            @Override
            public void characters(char[] ch, int start, int length) throws SAXException {
                countText(length);
                if (!open.isEmpty()) {
                    run.append(ch, start, length);
                }
            }

            @Override
            public void error(SAXParseException e) throws SAXException {
                throw e;
            }
        });
        return root[0];
    }
}
