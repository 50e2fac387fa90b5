/**
 * The host page of the kit's browser tests: a small tea shop that uses the kit the way a customer
 * would — the command-queue snippet (in the HTML), then this classic script queueing its calls, then
 * the kit itself loaded with `<script async>`. It never imports the kit.
 */
type Diosc = (...args: unknown[]) => unknown;
declare global {
  interface Window {
    diosc: Diosc;
    shop: {
      runs(): { tool: string; args: unknown }[];
      view(): string;
      renders: number;
      setIntents(on: boolean): void;
    };
  }
}

// The test opens the first page with the hub's URL and key in the query; later pages keep them.
const given = new URLSearchParams(location.search);
if (given.has('pk')) sessionStorage.setItem('shop-config', given.toString());
const params = new URLSearchParams(sessionStorage.getItem('shop-config') ?? '');
const diosc: Diosc = (...args) => window.diosc(...args);
const RUNS = 'shop-runs';

function recordRun(tool: string, args: unknown) {
  const runs = JSON.parse(localStorage.getItem(RUNS) ?? '[]');
  runs.push({ tool, args });
  localStorage.setItem(RUNS, JSON.stringify(runs));
}

const PRODUCTS = [
  { id: '41', name: 'Sencha', price: 7 },
  { id: '42', name: 'Assam', price: 3 },
  { id: '43', name: 'Oolong', price: 9 },
];
let title = 'Tea catalogue';
let intentsOn = true;

const homeIntents = [
  {
    name: 'apply_changes',
    description: 'Apply price changes to products.',
    schema: {
      type: 'object',
      required: ['ops'],
      properties: { ops: { type: 'array', items: { type: 'object' } } },
    },
    approval: {
      severity: 'medium',
      summary: (args: { ops: unknown[] }) => `Apply ${args.ops.length} change(s) to the catalogue`,
      diff: (args: { ops: { id: string; price: number }[] }) =>
        args.ops.map((op) => ({
          field: `price of ${op.id}`,
          current: PRODUCTS.find((p) => p.id === op.id)?.price ?? '—',
          next: op.price,
        })),
    },
    handler: (args: { ops: { id: string; price: number }[] }) => {
      recordRun('apply_changes', args);
      for (const op of args.ops) {
        const product = PRODUCTS.find((p) => p.id === op.id);
        if (product) product.price = op.price;
      }
      render();
      return { success: true, data: { applied: args.ops.length } };
    },
  },
  {
    name: 'rename_catalogue',
    description: 'Rename the catalogue.',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['title'],
      properties: { title: { type: 'string', minLength: 3 }, pinned: { type: 'boolean' } },
    },
    approval: {
      severity: 'high',
      summary: (args: { title: string }) => `Rename the catalogue to “${args.title}”`,
      diff: (args: { title: string }) => [{ field: 'title', current: title, next: args.title }],
    },
    handler: (args: { title: string }) => {
      recordRun('rename_catalogue', args);
      title = args.title;
      render();
      return { success: true, data: { title } };
    },
  },
  {
    name: 'slow_publish',
    description: 'Publish the catalogue (slow).',
    schema: { type: 'object', properties: {} },
    approval: { severity: 'low', summary: () => 'Publish the catalogue' },
    handler: () => {
      recordRun('slow_publish', {});
      return new Promise(() => {});
    },
  },
  {
    name: 'export_csv',
    description: 'Export the price list as CSV.',
    schema: { type: 'object', properties: {} },
    handler: () => {
      recordRun('export_csv', {});
      const csv = `id,name,price\n${PRODUCTS.map((p) => `${p.id},${p.name},${p.price}`).join('\n')}\n`;
      return {
        success: true,
        data: { rows: PRODUCTS.length },
        file: { content: csv, filename: 'prices.csv', mimeType: 'text/csv' },
      };
    },
  },
];

const productIntents = [
  {
    name: 'add_to_cart',
    description: 'Add the product on screen to the cart.',
    schema: { type: 'object', properties: { quantity: { type: 'integer', minimum: 1 } } },
    handler: (args: unknown) => {
      recordRun('add_to_cart', args);
      return { success: true, data: { added: location.pathname.split('/').pop() } };
    },
  },
];

function view(): string {
  return location.pathname.startsWith('/shop/products/') ? 'product' : 'home';
}

function render(): void {
  const main = document.querySelector('main')!;
  if (view() === 'product') {
    const product = PRODUCTS.find((p) => p.id === location.pathname.split('/').pop());
    main.innerHTML = `<h1>${product?.name ?? 'Unknown tea'}</h1><p>Price: ${product?.price ?? '—'} €</p>`;
  } else {
    main.innerHTML = `<h1>${title}</h1>
      <table><tbody>${PRODUCTS.map((p) => `<tr data-id="${p.id}"><td>${p.name}</td><td>${p.price} €</td></tr>`).join('')}</tbody></table>
      <div hidden>HIDDEN-ATTRIBUTE-TEXT</div>
      <p style="display:none">DISPLAY-NONE-TEXT</p>
      <p><span style="visibility:hidden">VISIBILITY-HIDDEN-TEXT</span> <span aria-hidden="true">ARIA-HIDDEN-TEXT</span></p>
      <svg width="10" height="10"><text>SVG-TEXT</text></svg>
      <iframe srcdoc="IFRAME-TEXT" title="ad"></iframe>
      <label>Password <input type="password" value="PASSWORD-VALUE"></label>
      <label>Search <input type="search" value="green tea"></label>
      <noscript>NOSCRIPT-TEXT</noscript>`;
  }
  window.shop.renders++;
  diosc('browserAdapter', {
    read: () => ({
      url: location.href,
      title: document.title,
      description: view() === 'product' ? 'One product' : 'The tea catalogue',
      content: (main.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 500),
      data: { view: view(), products: PRODUCTS.length },
    }),
    intents: intentsOn ? (view() === 'product' ? productIntents : homeIntents) : [],
  });
}

window.shop = {
  runs: () => JSON.parse(localStorage.getItem(RUNS) ?? '[]'),
  view,
  renders: 0,
  setIntents(on) {
    intentsOn = on;
    render();
  },
};

diosc('init', {
  hubUrl: params.get('hub'),
  publishableKey: params.get('pk'),
  webmcp: params.has('webmcp'),
  open: true,
  ...(params.get('locale') ? { locale: params.get('locale') } : {}),
});
diosc('tool', 'highlight_row', (input: { id: string }) => {
  recordRun('highlight_row', input);
  const row = document.querySelector(`[data-id="${input.id}"]`);
  if (!row) return { error: `Row ${input.id} not found` };
  row.classList.add('is-highlighted');
  return { highlighted: input.id };
});
diosc('tool', 'slow_export', (input: unknown) => {
  recordRun('slow_export', input);
  return new Promise(() => {});
});
if (params.has('timed')) {
  // A raw tool that takes three seconds (long enough for the network to drop while it runs).
  diosc('tool', 'timed_export', async (input: unknown) => {
    recordRun('timed_export', input);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return { exported: true, rows: 12 };
  });
}
if (params.has('rawfile')) {
  // A raw tool (not an intent) that returns a file: well formed, or without its filename.
  diosc('tool', 'export_report', (input: { malformed?: boolean }) => {
    recordRun('export_report', input);
    const content = `data:text/csv;base64,${btoa('id,total\n1,10\n2,20\n')}`;
    return { exported: true, file: input.malformed ? { content } : { content, filename: 'report.csv' } };
  });
}
if (params.has('spa')) {
  diosc('setNavigationHandler', async (path: string) => {
    history.pushState({}, '', path);
    render();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}
addEventListener('DOMContentLoaded', render);

export {};
