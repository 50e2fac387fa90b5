// Times, inside the page, how long a client takes from the event-stream chunk that carries an
// interrupt to the start of its answer's fetch. Used by the kit's page (through `init({ fetch })`)
// and by the bare page alike, so both are measured the same way.
export const marks: { interruptAt: number[]; answerAt: number[] } = { interruptAt: [], answerAt: [] };

export function timedFetch(real: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/answer')) marks.answerAt.push(performance.now());
    const response = await real(input, init);
    if (!url.endsWith('/events') || !response.body) return response;
    const decoder = new TextDecoder();
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (decoder.decode(chunk, { stream: true }).includes('event: interrupt\n'))
            marks.interruptAt.push(performance.now());
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(watched, { status: response.status, headers: response.headers });
  };
}

Object.assign(window, { answerMarks: marks, timedFetch: timedFetch(fetch.bind(window)) });
