import { useBrowserAdapter, useDioscTool } from '@diosc/react';
import { useState } from 'react';
import { recordRun } from './runs.js';

/** Owns `open_report`, and a browser adapter whose snapshot and intent follow the chosen month. */
export function Reports() {
  const [month, setMonth] = useState('January');
  useDioscTool('open_report', () => {
    recordRun('open_report');
    return { opened: month };
  });
  useBrowserAdapter({
    read: () => ({ url: location.pathname, title: 'Reports', data: { month } }),
    intents: [
      {
        name: 'choose_month',
        description: 'Show the report of another month.',
        schema: { type: 'object', required: ['month'], properties: { month: { type: 'string' } } },
        handler: (args: { month: string }) => {
          recordRun('choose_month');
          setMonth(args.month);
          return { success: true, data: { from: month, to: args.month } };
        },
      },
    ],
  });
  return (
    <main>
      <h1>Reports</h1>
      <p>Month: {month}</p>
    </main>
  );
}
