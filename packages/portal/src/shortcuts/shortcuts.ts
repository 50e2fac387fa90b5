import { tinykeys } from 'tinykeys';
import { PATHS } from '../router/router.js';

/** True when the key press belongs to a text field (so `g h` stays a letter someone is typing). */
export function isTyping(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0];
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color'].includes(target.type);
  }
  return false;
}

/** True while a modal dialog is open anywhere (palette, review, forms): shortcuts wait. */
function modalOpen(): boolean {
  const stack: ParentNode[] = [document];
  while (stack.length > 0) {
    const root = stack.pop()!;
    if (root.querySelector('dialog[open]')) return true;
    for (const element of root.querySelectorAll('*')) if (element.shadowRoot) stack.push(element.shadowRoot);
  }
  return false;
}

/**
 * The portal's keyboard shortcuts: Ctrl/Cmd+K opens the command palette (from anywhere), and the
 * two-key sequences `g h` (Automation hub), `g c` (collections), `g a` (Connected apps), `g s`
 * (Assistants) when the
 * focus is not in a text field and no dialog is open.
 */
export function bindShortcuts(options: {
  openPalette: () => void;
  navigate: (path: string) => void;
  enabled: () => boolean;
}): () => void {
  const go = (path: string) => (event: KeyboardEvent) => {
    if (!options.enabled() || isTyping(event) || event.repeat || modalOpen()) return;
    event.preventDefault();
    options.navigate(path);
  };
  return tinykeys(window, {
    '$mod+KeyK': (event) => {
      if (!options.enabled()) return;
      event.preventDefault();
      options.openPalette();
    },
    'g h': go(PATHS.automationHub),
    'g c': go(PATHS.collections),
    'g a': go(PATHS.connectedApps),
    'g s': go(PATHS.assistants),
  });
}
