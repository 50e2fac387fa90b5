/**
 * A page that uses the kit as an ES module with the fake hub of `@diosc/kit/testing` in the page —
 * how a host app tests its own tools — for the file parts the real hub does not serve yet.
 */
import { diosc } from '@diosc/kit';
import { createFakeHub } from '@diosc/kit/testing';

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82]);

const hub = createFakeHub({
  url: location.origin,
  assistant: { name: 'Northwind assistant' },
  script: async (turn) => {
    if (turn.message.attachments?.length) {
      turn.say(`I got ${turn.message.attachments.length} file(s).`);
      return;
    }
    turn.text('Exporting the chart… ');
    const answer = await turn.callIntent('export_chart', {});
    turn.say('Here is the chart.');
    (window as unknown as { answer: unknown }).answer = answer;
  },
});
Object.assign(window, { fakeHub: hub, PNG });

diosc('init', { hubUrl: hub.url, publishableKey: hub.publishableKey, fetch: hub.fetch, open: true });
diosc('browserAdapter', {
  read: () => ({ url: location.href, title: document.title }),
  intents: [
    {
      name: 'export_chart',
      description: 'Export the chart as PNG.',
      schema: { type: 'object' },
      handler: () => ({
        success: true,
        data: { width: 1 },
        file: { content: new Blob([PNG], { type: 'image/png' }), filename: 'chart.png' },
      }),
    },
  ],
});
