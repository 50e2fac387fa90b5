/** What the inline parser hands to the renderer: text, or one of the few marks the widget draws. */
export type InlineNode =
  | string
  | { mark: 'em' | 'strong'; children: InlineNode[] }
  | { mark: 'code'; text: string }
  | { mark: 'br' }
  | { mark: 'link'; href: string; title?: string; children: InlineNode[] }
  | { mark: 'autolink'; href: string; text: string };
