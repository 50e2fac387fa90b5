import type { CollectionRow } from '@diosc/protocol';
import Fuse from 'fuse.js';
import { html, LitElement } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { icons } from '../ui/icons.js';
import { openModal } from '../ui/modal.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { commandPaletteStyles } from './command-palette-styles.js';
import { buildCommands, type Command } from './commands.js';

/**
 * Ctrl/Cmd+K: a native modal dialog with a combobox; fuse.js ranks commands by fuzzy match on their
 * translated title and keywords. Arrow keys move, Enter runs, Escape closes and focus goes back.
 */
export class CommandPalette extends LitElement {
  static override properties = {
    portal: { attribute: false },
    query: { state: true },
    active: { state: true },
  };
  static override styles = [sharedStyles, commandPaletteStyles];
  declare portal: Portal;
  declare query: string;
  declare active: number;
  #collections: CollectionRow[] = [];
  #assistants: { id: string; name: string }[] = [];

  constructor() {
    super();
    new I18nController(this);
    this.query = '';
    this.active = 0;
  }

  async open(): Promise<void> {
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog || dialog.open) return;
    this.query = '';
    this.active = 0;
    await this.updateComplete;
    openModal(dialog, dialog.querySelector('input'));
    try {
      this.#collections = (await this.portal.api.operation('collections_list', {})).result.collections;
      this.requestUpdate();
    } catch {
      // The navigation commands work without the collection list.
    }
    try {
      const { assistants } = await this.portal.assistants.list();
      this.#assistants = assistants.map((assistant) => ({ id: assistant.id, name: assistant.name }));
      this.requestUpdate();
    } catch {
      // Nor do they need the assistants.
    }
  }

  #results(): Command[] {
    const commands = buildCommands(this.portal, this.#collections, this.#assistants);
    const query = this.query.trim();
    if (!query) return commands;
    const fuse = new Fuse(commands, {
      keys: [{ name: 'title', weight: 2 }, 'keywords'],
      threshold: 0.4,
      ignoreLocation: true,
    });
    return fuse.search(query).map((match) => match.item);
  }

  #run(command: Command | undefined): void {
    if (!command) return;
    const from = location.pathname;
    this.renderRoot.querySelector('dialog')?.close();
    command.run();
    // A command that opened another page (or collection) hands focus to it, not back to the
    // palette button; the frame listens for this.
    if (location.pathname !== from) {
      this.dispatchEvent(new CustomEvent('palette-navigated', { bubbles: true, composed: true }));
    }
  }

  #keydown(event: KeyboardEvent, results: Command[]): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.active = (this.active + step + results.length) % Math.max(results.length, 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.#run(results[this.active]);
    }
  }

  override render() {
    const results = this.#results();
    const activeId = results[this.active] ? `cmd-${results[this.active]!.id}` : '';
    return html`<dialog aria-label=${t('palette.label')} @close=${() => {
      this.query = '';
    }}>
      <div class="search">
        ${icons.search}
        <input
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant=${activeId}
          aria-label=${t('palette.inputLabel')}
          placeholder=${t('palette.placeholder')}
          autocomplete="off"
          spellcheck="false"
          .value=${this.query}
          @input=${(event: Event) => {
            this.query = (event.target as HTMLInputElement).value;
            this.active = 0;
          }}
          @keydown=${(event: KeyboardEvent) => this.#keydown(event, results)}
        />
        <kbd>Esc</kbd>
      </div>
      <ul id="palette-list" role="listbox" tabindex="-1" aria-label=${t('palette.results')}>
        ${
          results.length === 0
            ? html`<li class="none muted" role="presentation">${t('palette.noResults')}</li>`
            : results.map(
                (command, index) => html`<li
                id=${`cmd-${command.id}`}
                role="option"
                aria-selected=${index === this.active ? 'true' : 'false'}
                @click=${() => this.#run(command)}
                @pointermove=${() => {
                  this.active = index;
                }}
              >
                <span class="title">${command.title}</span>
                <span class="group small muted">${command.group}</span>
                ${command.shortcut ? html`<kbd>${command.shortcut}</kbd>` : ''}
              </li>`,
              )
        }
      </ul>
    </dialog>`;
  }
}

customElements.define('diosc-command-palette', CommandPalette);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-command-palette': CommandPalette;
  }
}
