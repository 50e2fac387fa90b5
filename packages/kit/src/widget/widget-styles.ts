import { css } from 'lit';

/** Shared look: every colour and size is a `--diosc-*` custom property with a default. */
const base = css`
  :host { all: initial; font: var(--diosc-font, 14px/1.45 system-ui, sans-serif); color: var(--diosc-fg, #1d2433); }
  button { font: inherit; cursor: pointer; border-radius: 8px; border: 1px solid var(--diosc-border, #d0d5dd); background: transparent; color: inherit; padding: 0.35rem 0.7rem; }
  button:focus-visible, textarea:focus-visible { outline: 3px solid var(--diosc-focus, #7aa2ff); outline-offset: 2px; }
  .problem { color: var(--diosc-danger, #b42318); margin: 0.25rem 0.75rem; }
`;

export const widgetStyles = [
  base,
  css`
    :host { position: fixed; right: var(--diosc-offset, 1.25rem); bottom: var(--diosc-offset, 1.25rem); z-index: var(--diosc-z, 2147483000); display: flex; flex-direction: column; align-items: flex-end; gap: 0.75rem; }
    .launcher { width: 3.25rem; height: 3.25rem; border-radius: 50%; border: none; background: var(--diosc-accent, #2457d6); color: var(--diosc-on-accent, #fff); font-size: 1.4rem; box-shadow: 0 6px 20px rgb(0 0 0 / 0.25); position: relative; }
    .dot { position: absolute; top: 0.25rem; right: 0.25rem; width: 0.7rem; height: 0.7rem; border-radius: 50%; background: var(--diosc-warn, #f79009); }
    .panel { box-sizing: border-box; width: min(24rem, calc(100vw - 2rem)); height: min(36rem, calc(100vh - 6rem)); display: flex; flex-direction: column; background: var(--diosc-bg, #fff); border: 1px solid var(--diosc-border, #d0d5dd); border-radius: var(--diosc-radius, 12px); box-shadow: 0 18px 50px rgb(0 0 0 / 0.2); overflow: hidden; }
    header { display: flex; justify-content: space-between; align-items: start; gap: 0.5rem; padding: 0.75rem 0.9rem; border-bottom: 1px solid var(--diosc-border, #e4e7ec); }
    h2 { margin: 0; font-size: 1rem; }
    small { color: var(--diosc-muted, #5b6474); }
    .close { border: none; font-size: 1.2rem; padding: 0 0.4rem; }
    .status { padding: 0.45rem 0.9rem; background: var(--diosc-notice-bg, #f2f4f7); font-size: 0.85rem; display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; }
    .status.error, .status.offline { background: #fef3f2; color: #8a1c13; }
    .messages { list-style: none; margin: 0; padding: 0.75rem 0.9rem; flex: 1; overflow-y: auto; display: flex; flex-direction: column; gap: 0.6rem; }
    .message { max-width: 92%; padding: 0.5rem 0.7rem; border-radius: 10px; background: var(--diosc-assistant-bg, #f2f4f7); overflow-wrap: anywhere; }
    .message.user { align-self: flex-end; background: var(--diosc-user-bg, #e0e9ff); white-space: pre-wrap; }
    .who { display: block; font-size: 0.72rem; font-weight: 600; color: var(--diosc-muted, #5b6474); }
    .text p { margin: 0.3rem 0; }
    .text pre { background: #101828; color: #f2f4f7; padding: 0.5rem; border-radius: 6px; overflow-x: auto; }
    .text code { font-family: ui-monospace, monospace; font-size: 0.85em; }
    .text ul, .text ol { margin: 0.3rem 0; padding-left: 1.2rem; }
    .text blockquote { margin: 0.3rem 0; padding-left: 0.6rem; border-left: 3px solid var(--diosc-border, #d0d5dd); }
    .md-h1, .md-h2, .md-h3 { font-weight: 700; }
    a { color: var(--diosc-link, #2457d6); }
    .tools { list-style: none; margin: 0.2rem 0; padding: 0; font-size: 0.8rem; }
    .tool.failed { color: var(--diosc-danger, #b42318); }
    .files { display: flex; flex-wrap: wrap; gap: 0.4rem; margin-top: 0.35rem; }
    .chip { font-size: 0.82rem; border-radius: 999px; background: var(--diosc-bg, #fff); }
    .empty, .working, .notice { color: var(--diosc-muted, #5b6474); font-size: 0.85rem; }
    .notice.failed { color: var(--diosc-danger, #b42318); }
    .approvals { margin: 0 0.9rem 0.5rem; padding: 0.5rem 0.7rem; border-radius: 8px; background: #fff4d6; display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; }
  `,
];

export const composerStyles = [
  base,
  css`
    form { border-top: 1px solid var(--diosc-border, #e4e7ec); padding: 0.6rem 0.75rem; display: grid; gap: 0.4rem; }
    form.dragging { background: var(--diosc-user-bg, #e0e9ff); }
    .row { display: flex; gap: 0.4rem; align-items: end; }
    textarea { flex: 1; resize: none; font: inherit; padding: 0.45rem 0.55rem; border-radius: 8px; border: 1px solid var(--diosc-border, #d0d5dd); background: inherit; color: inherit; }
    .send, .stop { background: var(--diosc-accent, #2457d6); color: var(--diosc-on-accent, #fff); border: none; }
    .stop { background: var(--diosc-danger, #b42318); }
    .attachments { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.35rem; font-size: 0.8rem; }
    .attachments li { border: 1px solid var(--diosc-border, #d0d5dd); border-radius: 999px; padding: 0.1rem 0.2rem 0.1rem 0.6rem; }
    .attachments li.failed { color: var(--diosc-danger, #b42318); }
    .attachments button { border: none; padding: 0 0.35rem; }
    .drop { margin: 0; font-size: 0.85rem; }
  `,
];
