import { ConsensusDialog } from '../consensus/consensus-dialog.js';
import type { KitContext } from '../kit-context.js';
import { DioscComposer } from './composer.js';
import { DioscWidget } from './diosc-widget.js';
import { attachKit } from './element-kit.js';

const ELEMENTS: [string, CustomElementConstructor][] = [
  ['diosc-widget', DioscWidget],
  ['diosc-composer', DioscComposer],
  ['diosc-consensus-dialog', ConsensusDialog],
];

/** Defines the kit's elements once per page (a second bundled copy reuses the first definitions). */
export function defineElements(): void {
  for (const [name, element] of ELEMENTS) if (!customElements.get(name)) customElements.define(name, element);
}

/** Puts the widget where `init` said (default: the end of `<body>`), themed with its `--diosc-*` values. */
export function mountWidget(kit: KitContext): void {
  defineElements();
  const widget = document.createElement('diosc-widget') as DioscWidget;
  attachKit(widget, kit);
  widget.lang = kit.translator.locale;
  for (const [property, value] of Object.entries(kit.options?.theme ?? {}))
    widget.style.setProperty(property, value);
  const mount = kit.options?.mount;
  const target = typeof mount === 'string' ? document.querySelector(mount) : (mount ?? document.body);
  (target ?? document.body).append(widget);
  kit.widget = widget;
}
