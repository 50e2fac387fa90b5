/** The kit's built-in browser tools, as the hub describes them to the model. */
export const BUILT_IN_BROWSER_TOOLS = [
  {
    name: 'navigate',
    description:
      "Move the visitor to another page of this site, without a reload where the site supports it. Use only a path from the site's routes listed in the instructions.",
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['path'],
      properties: {
        path: { type: 'string', description: 'A site path such as /products/42', maxLength: 2048 },
      },
    },
  },
  {
    name: 'read_page',
    description:
      "Read the page the visitor is looking at. Without a selector: the URL, path, title and visible text, main content first (up to 5,000 characters; `truncated` says when there was more, with `totalChars` or, on a long page, `totalCharsAtLeast`: ask with a selector for a part). With a CSS selector: that element's text and HTML.",
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { selector: { type: 'string', maxLength: 512, description: 'A CSS selector (optional)' } },
    },
  },
] as const;
