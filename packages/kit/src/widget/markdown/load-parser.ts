import { type MarkdownParser, markdownParser } from './markdown-parser.js';

/**
 * The markdown parser for the widget. From source (a host's bundler, the tests) it is here at once;
 * the hub's built files swap this module for `load-parser-script.ts`, which loads it after the
 * launcher is drawn, so it is not in the kit's initial JavaScript.
 */
export function currentParser(): MarkdownParser | undefined {
  return markdownParser;
}

/** Resolves when `currentParser()` has the parser. */
export function loadParser(): Promise<MarkdownParser> {
  return Promise.resolve(markdownParser);
}
