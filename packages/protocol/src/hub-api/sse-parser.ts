/** One Server-Sent Events message as the stream delivered it. */
export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/**
 * An incremental parser of `text/event-stream` (WHATWG HTML §9.2): feed it decoded text in any
 * chunking; it calls `onMessage` per dispatched message. CR, LF and CRLF end lines; `:` lines are
 * comments (keep-alives); an `id` holding NUL is ignored, as the spec says.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | null = null;
  let trailingCr = false;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onMessage({ id, event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return (chunk) => {
    let text = chunk;
    if (trailingCr && text.startsWith('\n')) text = text.slice(1);
    trailingCr = text.endsWith('\r');
    buffer += text;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const each of lines) line(each);
  };
}
