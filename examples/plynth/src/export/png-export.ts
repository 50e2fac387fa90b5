import { type Diagram, NODE_HEIGHT, NODE_WIDTH, nodeById } from '../diagram/diagram.js';
import { arrowBetween, extent, fitLabel } from '../editor/geometry.js';

/**
 * The diagram as a PNG: drawn from the document itself onto a canvas (no SVG serialisation, so no
 * tainted canvas and nothing the page's CSP must allow), then `canvas.toBlob('image/png')`.
 */
export async function exportPng(diagram: Diagram, scale = 2): Promise<Blob> {
  const { width, height } = extent(diagram);
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw on a canvas.');
  context.scale(scale, scale);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);

  context.strokeStyle = '#475467';
  context.fillStyle = '#475467';
  context.lineWidth = 2;
  for (const edge of diagram.edges) {
    const from = nodeById(diagram, edge.from);
    const to = nodeById(diagram, edge.to);
    if (!from || !to) continue;
    const { start, end } = arrowBetween(from, to);
    context.beginPath();
    context.moveTo(start.x, start.y);
    context.lineTo(end.x, end.y);
    context.stroke();
    const angle = Math.atan2(end.y - start.y, end.x - start.x);
    context.beginPath();
    context.moveTo(end.x, end.y);
    context.lineTo(end.x - 10 * Math.cos(angle - 0.45), end.y - 10 * Math.sin(angle - 0.45));
    context.lineTo(end.x - 10 * Math.cos(angle + 0.45), end.y - 10 * Math.sin(angle + 0.45));
    context.closePath();
    context.fill();
  }

  context.font = '15px system-ui, sans-serif';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  for (const node of diagram.nodes) {
    context.beginPath();
    context.roundRect(node.x, node.y, NODE_WIDTH, NODE_HEIGHT, 10);
    context.fillStyle = '#eef4ff';
    context.fill();
    context.strokeStyle = '#3056d3';
    context.stroke();
    context.fillStyle = '#101828';
    context.fillText(fitLabel(node.label), node.x + NODE_WIDTH / 2, node.y + NODE_HEIGHT / 2);
  }

  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made.'))),
      'image/png',
    ),
  );
}
