import { parseBlocks } from './parse-blocks.js';
import { parseInline } from './parse-inline.js';

/**
 * What turns markdown text into blocks and inline nodes (plain data); `render-markdown.ts` draws
 * them. The built kit loads it on demand, as its own pinned script (`load-parser-script.ts`).
 */
export interface MarkdownParser {
  parseBlocks: typeof parseBlocks;
  parseInline: typeof parseInline;
}

export const markdownParser: MarkdownParser = { parseBlocks, parseInline };
