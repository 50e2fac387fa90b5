/** `commonmark-spec` ships no types: its examples, as its index.js reads them out of spec.txt. */
declare module 'commonmark-spec' {
  export const tests: { markdown: string; html: string; section: string; number: number }[];
}
