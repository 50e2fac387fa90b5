import { loadPinnedScript, type PinnedScript } from '../../pinned-script/load-pinned-script.js';
import type { MarkdownParser } from './markdown-parser.js';

/** Filled in by the build: the parser's content-hashed file (beside this one) and its SRI digest. */
declare const __DIOSC_MARKDOWN_SCRIPT__: PinnedScript;

/** Where the parser script puts itself (`parser-script.ts`). */
export const PARSER_KEY = Symbol.for('diosc.markdown-parser');

let parser: MarkdownParser | undefined;
let loading: Promise<MarkdownParser> | undefined;

/** The parser once its script has run; until then the widget shows the assistant's text as written. */
export function currentParser(): MarkdownParser | undefined {
  return parser;
}

/** Loads the parser's pinned script once; a failed load (offline) is tried again on the next call. */
export function loadParser(): Promise<MarkdownParser> {
  loading ??= loadPinnedScript<MarkdownParser>(__DIOSC_MARKDOWN_SCRIPT__, PARSER_KEY, 'markdown parser').then(
    (loaded) => {
      parser = loaded;
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
