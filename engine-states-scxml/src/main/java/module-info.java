/**
 * SCXML import ({@code dev.enginestates.scxml}): W3C SCXML documents compiled to machines, with the
 * null, XPath-free and ECMAScript (Rhino) datamodels.
 */
module dev.enginestates.scxml {
    requires transitive dev.enginestates.core;
    requires java.xml;
    requires org.mozilla.rhino;

    exports dev.enginestates.scxml;
}
