import type { KitContext } from '../kit-context.js';

/**
 * Which kit each widget element serves, kept in this module and nowhere on the elements: a page
 * script that walks `diosc-widget` (own properties, prototype chain, open shadow root) finds no
 * path to the kit, its consensus broker or a `decide` function.
 */
const KITS = new WeakMap<Element, KitContext>();

/** Ties the mounted widget to its kit. */
export function attachKit(widget: Element, kit: KitContext): void {
  KITS.set(widget, kit);
}

/**
 * The kit of the widget, or of the widget whose shadow root holds `element` (the composer and the
 * consensus dialog); undefined for anything else.
 */
export function kitOf(element: Element): KitContext | undefined {
  const own = KITS.get(element);
  if (own) return own;
  const root = element.getRootNode();
  return root instanceof ShadowRoot ? KITS.get(root.host) : undefined;
}
