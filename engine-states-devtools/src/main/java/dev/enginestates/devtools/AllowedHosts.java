package dev.enginestates.devtools;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names the devtools page answers to, whatever address it listens on: the loopback names,
 * the address it is bound to, and the names the game lists
 * ({@link DevtoolsOptions#allowHosts(String...)}), each with the server's own port. A request's
 * {@code Host} must be one of them, and an {@code Origin}, when a browser sends one, must be
 * {@code http://} one of them. A page reached under any other name is a DNS-rebinding attack:
 * the browser would take an attacker's site for this page.
 *
 * <p>Values are parsed exactly, as {@code host[:port]}: no user info, no path, no second colon
 * outside an IPv6 literal's brackets, no trailing text. A host name is compared, never looked up.
 */
final class AllowedHosts {
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]+");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    /** Lower-case names and IPv4 literals; IPv6 literals bracketed, in the form {@link InetAddress#getHostAddress()} gives. */
    private final Set<String> names = new LinkedHashSet<>();
    private final int port;

    AllowedHosts(int port, InetAddress bound, String boundAs, Collection<String> listed) {
        this.port = port;
        names.add("localhost");
        names.add("127.0.0.1");
        names.add(normalize("[::1]"));
        add(boundAs);
        add(bound.getHostAddress());
        for (String h : listed) {
            add(h);
        }
    }

    private void add(String host) {
        String n = normalize(host);
        if (n != null) {
            names.add(n);
        }
    }

    /**
     * A host as a game or a request names it, in the form it is compared in: lower case, an IPv6
     * literal bracketed and written out; {@code null} if it is not a host name, an IPv4 literal or
     * an IPv6 literal (with or without its brackets).
     */
    static String normalize(String host) {
        if (host == null) {
            return null;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            return ipv6(h.substring(1, h.length() - 1));
        }
        if (h.indexOf(':') >= 0) {
            return ipv6(h);
        }
        return NAME.matcher(h).matches() && h.length() <= 253 ? h : null;
    }

    private static String ipv6(String literal) {
        if (!IPV6.matcher(literal).matches() || literal.indexOf(':') < 0) {
            return null; // a zone (%eth0) or anything but a literal: never handed to the resolver
        }
        try {
            InetAddress a = InetAddress.getByName(literal); // a literal: parsed, not looked up
            // an IPv4-mapped literal comes back as IPv4: it is then the IPv4 address it names
            return a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether a {@code Host} header names this page: an allowed host, with the server's port (80 if none is written). */
    boolean allowsHost(String header) {
        return header != null && allowsHostPort(header.strip());
    }

    /** Whether an {@code Origin} header is one of this page's origins: {@code http://}, an allowed host, the server's port. */
    boolean allowsOrigin(String header) {
        if (header == null) {
            return false;
        }
        String o = header.strip();
        String scheme = "http://";
        return o.regionMatches(true, 0, scheme, 0, scheme.length()) && allowsHostPort(o.substring(scheme.length()));
    }

    private boolean allowsHostPort(String hostPort) {
        String host;
        String portText;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) {
                return false;
            }
            host = hostPort.substring(0, close + 1);
            String rest = hostPort.substring(close + 1);
            if (rest.isEmpty()) {
                portText = null;
            } else if (rest.startsWith(":")) {
                portText = rest.substring(1);
            } else {
                return false; // text after the literal that is not a port
            }
        } else {
            int colon = hostPort.indexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            portText = colon < 0 ? null : hostPort.substring(colon + 1);
        }
        if (portText != null && !PORT.matcher(portText).matches()) {
            return false; // a second colon, user info, a path or anything else after the port
        }
        int p = portText == null ? 80 : Integer.parseInt(portText);
        if (p != port) {
            return false;
        }
        String n = normalize(host); // host has no colon outside brackets here: a name, an IPv4 or a bracketed IPv6 literal
        return n != null && names.contains(n);
    }

    /** The allowed hosts with the port, for a message: {@code localhost:8080, 127.0.0.1:8080, ...}. */
    String describe() {
        StringBuilder b = new StringBuilder();
        for (String n : names) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(n).append(':').append(port);
        }
        return b.toString();
    }
}
