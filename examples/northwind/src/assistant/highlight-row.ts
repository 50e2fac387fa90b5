import type { BrowserToolHandler } from '@diosc/kit';
import type { AppContext } from '../app/app-context.js';

/**
 * `highlight_row` — the seed's raw tool: one self-contained action on the products table. It only
 * works where the table is on screen, and says so otherwise, so the model can navigate first.
 */
export function highlightRow(app: AppContext): BrowserToolHandler {
  return (params) => {
    const id = String(params.id ?? '');
    const row = document.querySelector(`#products tr[data-id="${CSS.escape(id)}"]`);
    if (!row) return { error: `Row ${id} not found` };
    app.highlighted = id;
    app.refresh();
    row.scrollIntoView({ block: 'center' });
    return { highlighted: id };
  };
}
