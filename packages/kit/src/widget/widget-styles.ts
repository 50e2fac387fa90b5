import { css } from 'lit';

/**
 * The kit's look, shared by the widget, the composer and the consensus dialog. Every colour and size
 * is a `--diosc-*` custom property with a default; `::part()` names are documented in docs/kit.md.
 */
export const sharedStyles = css`
  :host { all: initial; font: var(--diosc-font, 14px/1.45 system-ui, sans-serif); color: var(--diosc-fg, #1d2433); }
  button, input, select, textarea { font: inherit; color: inherit; background: transparent; border: 1px solid var(--diosc-border, #d0d5dd); border-radius: 8px; padding: 0.4rem 0.7rem; }
  textarea { font-family: ui-monospace, monospace; font-size: 0.9em; resize: vertical; }
  button { cursor: pointer; }
  .primary { background: var(--diosc-accent, #2457d6); color: var(--diosc-on-accent, #fff); border-color: transparent; }
  .danger { background: var(--diosc-danger, #b42318); color: #fff; }
  :focus-visible { outline: 3px solid var(--diosc-focus, #2457d6); outline-offset: 2px; }
  .problem { color: var(--diosc-danger, #b42318); font-weight: 600; }
  .muted, small { color: var(--diosc-muted, #5b6474); }
  .card { background: var(--diosc-bg, #fff); border: 1px solid var(--diosc-border, #d0d5dd); border-radius: var(--diosc-radius, 12px); box-shadow: 0 18px 50px #0003; }
`;

/*
 * The widget's :host rule is important: a host page's rules (`:focus { box-shadow }`, `* { margin }`)
 * beat a shadow root's normal ones on its host, and an important :host rule beats the page's even
 * when those are important too. The host box spans the panel's width and the launcher's height; only
 * what the widget draws takes the pointer, so the rest of that box stays the page's.
 */
export const widgetStyles = [
  sharedStyles,
  css`
    :host { all: initial !important; position: fixed !important; right: 20px !important; bottom: 20px !important; z-index: var(--diosc-z, 2147483000) !important; display: flex !important; flex-direction: column !important; align-items: end !important; gap: 12px !important; pointer-events: none !important; font: var(--diosc-font, 14px/1.45 system-ui, sans-serif) !important; color: var(--diosc-fg, #1d2433) !important; }
    * { pointer-events: auto; }
    .launcher { width: 3.25rem; height: 3.25rem; border-radius: 50%; font-size: 1.3rem; position: relative; display: grid; place-items: center; }
    button svg { vertical-align: -0.2em; }
    .dot { position: absolute; top: 4px; right: 4px; width: 10px; height: 10px; border-radius: 50%; background: #f79009; }
    .panel { box-sizing: border-box; width: min(24rem, 100vw - 2rem); height: min(36rem, 100vh - 6rem); display: flex; flex-direction: column; overflow: hidden; }
    header, .status, .approvals { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; padding: 0.6rem 0.9rem; }
    header { border-bottom: 1px solid var(--diosc-border, #e4e7ec); }
    h2 { margin: 0; font-size: 1rem; }
    .close { border: 0; font-size: 1.2rem; }
    .status { background: #f2f4f7; font-size: 0.85em; }
    .error, .offline { background: #fef3f2; color: #8a1c13; }
    .messages { list-style: none; margin: 0; padding: 0.75rem 0.9rem; flex: 1; overflow-y: auto; display: flex; flex-direction: column; gap: 0.6rem; }
    .message { max-width: 92%; padding: 0.5rem 0.7rem; border-radius: 10px; background: var(--diosc-assistant-bg, #f2f4f7); overflow-wrap: anywhere; }
    .user { align-self: end; background: var(--diosc-user-bg, #e0e9ff); }
    .user .text, .as-written { white-space: pre-wrap; }
    .who { display: block; font-size: 0.72em; font-weight: 600; }
    p { margin: 0.3rem 0; }
    pre { background: #101828; color: #f2f4f7; padding: 0.5rem; border-radius: 6px; overflow-x: auto; }
    code { font-family: ui-monospace, monospace; font-size: 0.9em; }
    ul, ol { margin: 0.3rem 0; padding-left: 1.2rem; }
    blockquote { margin: 0.3rem 0; padding-left: 0.6rem; border-left: 3px solid var(--diosc-border, #d0d5dd); }
    [role='heading'] { font-weight: 700; }
    a { color: var(--diosc-link, #2457d6); }
    .outside-link { overflow-wrap: anywhere; }
    .tools { list-style: none; padding: 0; font-size: 0.8em; }
    .failed { color: var(--diosc-danger, #b42318); }
    .tool.declined { color: var(--diosc-muted, #5b6474); }
    .files { display: flex; flex-wrap: wrap; gap: 0.4rem; }
    .chip { border-radius: 999px; font-size: 0.85em; }
    .empty, .working, .notice { color: var(--diosc-muted, #5b6474); font-size: 0.85em; }
    .approvals { margin: 0 0.9rem 0.5rem; border-radius: 8px; background: #fff4d6; }
  `,
];

export const composerStyles = [
  sharedStyles,
  css`
    form { border-top: 1px solid var(--diosc-border, #e4e7ec); padding: 0.6rem 0.75rem; display: grid; gap: 0.4rem; }
    .dragging { background: var(--diosc-user-bg, #e0e9ff); }
    .row { display: flex; gap: 0.4rem; align-items: end; }
    textarea { flex: 1; resize: none; font: inherit; }
    .attachments { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.35rem; font-size: 0.8em; }
    .attachments button { border: 0; padding: 0 0.35rem; }
    .failed { color: var(--diosc-danger, #b42318); }
  `,
];
