import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../src/index.js';

describe('the SSE parser', () => {
  it('parses across any chunking, with CRLF, comments, multi-line data and ids', () => {
    const seen: SseMessage[] = [];
    const parse = createSseParser((message) => seen.push(message));
    const text =
      ': keep-alive\r\nid: 1\r\nevent: text.delta\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 2\ndata: plain\n\n:x\n\ndata: no id\n\n';
    for (const char of text) parse(char);
    expect(seen).toEqual([
      { id: '1', event: 'text.delta', data: '{"a":\n1}' },
      { id: '2', event: 'message', data: 'plain' },
      { id: '2', event: 'message', data: 'no id' },
    ]);
  });

  it('holds a line split between chunks, and a CR at a chunk’s end before its LF', () => {
    const seen: SseMessage[] = [];
    const parse = createSseParser((message) => seen.push(message));
    for (const chunk of ['data: {"t', 'ype":1}\r', '\n\r', '\ndata: x\n', '\n']) parse(chunk);
    expect(seen.map((message) => message.data)).toEqual(['{"type":1}', 'x']);
  });
});
