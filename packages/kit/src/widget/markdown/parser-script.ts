// The entry of `dist/diosc-kit-markdown.<hash>.js`: hands the markdown parser to the kit that loaded it.
import { PARSER_KEY } from './load-parser-script.js';
import { markdownParser } from './markdown-parser.js';

(globalThis as Record<symbol, unknown>)[PARSER_KEY] = markdownParser;
