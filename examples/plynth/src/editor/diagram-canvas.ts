import { html, svg, type TemplateResult } from 'lit';
import { NODE_HEIGHT, NODE_WIDTH, nodeById } from '../diagram/diagram.js';
import type { Editor } from './editor.js';
import { arrowBetween, extent, fitLabel } from './geometry.js';

interface Drag {
  id: string;
  dx: number;
  dy: number;
  moved: boolean;
}

/**
 * The SVG drawing of one editor, with its pointer handling: click selects (or, while connecting,
 * picks the arrow's target), drag moves a step, a click on the background clears the selection.
 * The drag in progress lives here, per canvas — never in a module global.
 */
export function createDiagramCanvas(editor: Editor): () => TemplateResult {
  let drag: Drag | null = null;

  const point = (event: PointerEvent) => {
    const canvas = (event.currentTarget as Element).closest('svg')!;
    return new DOMPoint(event.clientX, event.clientY).matrixTransform(canvas.getScreenCTM()!.inverse());
  };

  const pressNode = (event: PointerEvent, id: string) => {
    event.stopPropagation();
    const from = editor.connectingFrom();
    if (from) {
      if (from !== id) editor.apply([{ op: 'connect', from, to: id }]);
      editor.cancelConnecting();
      return;
    }
    editor.select({ kind: 'node', id });
    const node = nodeById(editor.diagram(), id)!;
    const at = point(event);
    drag = { id, dx: at.x - node.x, dy: at.y - node.y, moved: false };
    (event.currentTarget as Element).closest('svg')!.setPointerCapture(event.pointerId);
  };
  const moveDrag = (event: PointerEvent) => {
    if (!drag) return;
    const at = point(event);
    drag.moved = true;
    editor.move(drag.id, at.x - drag.dx, at.y - drag.dy, false);
  };
  const endDrag = (event: PointerEvent) => {
    if (drag?.moved) {
      const at = point(event);
      editor.move(drag.id, at.x - drag.dx, at.y - drag.dy, true);
    }
    drag = null;
  };

  return () => {
    const diagram = editor.diagram();
    const selected = editor.selection();
    const connecting = editor.connectingFrom();
    const { width, height } = extent(diagram);
    const edges = diagram.edges.flatMap((edge) => {
      const from = nodeById(diagram, edge.from);
      const to = nodeById(diagram, edge.to);
      if (!from || !to) return [];
      const { start, end } = arrowBetween(from, to);
      const isSelected = selected?.kind === 'edge' && selected.id === edge.id;
      return [
        svg`<g class="edge ${isSelected ? 'selected' : ''}" data-id=${edge.id} @pointerdown=${(
          event: PointerEvent,
        ) => {
          event.stopPropagation();
          editor.select({ kind: 'edge', id: edge.id });
        }}>
          <line class="hit" x1=${start.x} y1=${start.y} x2=${end.x} y2=${end.y}></line>
          <line class="line" x1=${start.x} y1=${start.y} x2=${end.x} y2=${end.y} marker-end="url(#plynth-arrow)"></line>
        </g>`,
      ];
    });
    const nodes = diagram.nodes.map((node) => {
      const classes = [
        'node',
        selected?.kind === 'node' && selected.id === node.id ? 'selected' : '',
        connecting === node.id ? 'source' : '',
      ];
      return svg`<g class=${classes.join(' ').trim()} data-id=${node.id} transform="translate(${node.x} ${node.y})"
          @pointerdown=${(event: PointerEvent) => pressNode(event, node.id)}>
          <title>${node.label}</title>
          <rect width=${NODE_WIDTH} height=${NODE_HEIGHT} rx="10"></rect>
          <text x=${NODE_WIDTH / 2} y=${NODE_HEIGHT / 2 + 5} text-anchor="middle">${fitLabel(node.label)}</text>
        </g>`;
    });
    return html`<svg class="canvas ${connecting ? 'connecting' : ''}" role="img" aria-label="Flowchart: ${diagram.title}"
        viewBox="0 0 ${width} ${height}" width=${width} height=${height}
        @pointermove=${moveDrag} @pointerup=${endDrag} @pointercancel=${endDrag}
        @pointerdown=${() => editor.select(null)}>
        <defs>
          <marker id="plynth-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z"></path>
          </marker>
        </defs>
        ${edges}${nodes}
      </svg>`;
  };
}
