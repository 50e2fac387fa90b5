declare global {
  interface Window {
    /** Every tool run on this page, in order: what the test reads to count runs. */
    toolRuns: string[];
  }
}

window.toolRuns = [];

export function recordRun(tool: string): void {
  window.toolRuns.push(tool);
}
