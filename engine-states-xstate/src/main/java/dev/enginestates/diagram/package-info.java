/**
 * Diagrams of machines of every declaration style: Mermaid's {@code stateDiagram-v2} and
 * Graphviz DOT ({@link dev.enginestates.diagram.Diagrams}), and the command line that prints
 * them and XState JSON ({@link dev.enginestates.diagram.DiagramCommand}). Reads definitions
 * only, at the faces' level.
 */
package dev.enginestates.diagram;
