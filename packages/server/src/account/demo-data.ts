import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { createCollection } from './collections.js';
import { byteSize, insertItemRows } from './item-view.js';

const MINUTE = 60_000;

const messages = [
  [
    'welcome',
    'Welcome to Diosc',
    'team@diosc.example',
    'Your account is ready. Open the Automation hub to let browser agents help with your inbox.',
  ],
  [
    'invoice-1042',
    'Invoice #1042 from Northwind',
    'billing@northwind.example',
    'Your invoice for November is attached. Amount due: 42.00 EUR.',
  ],
  [
    'standup',
    'Stand-up notes, Tuesday',
    'ana@plynth.example',
    'Shipped the diagram export. Next: approval flow for destructive edits.',
  ],
  [
    'travel',
    'Your trip to Lisbon',
    'trips@example.org',
    'Flight TP 1351 departs 09:40. Check-in opens 24 hours before departure.',
  ],
  [
    'newsletter',
    'This week in web agents',
    'news@webagents.example',
    'WebMCP lands behind a flag in Chromium; what it means for your app.',
  ],
  [
    'security',
    'New sign-in to your account',
    'security@diosc.example',
    'A new sign-in happened from Chromium on Linux. If this was not you, sign out everywhere.',
  ],
] as const;

const notes = [
  ['groceries', 'Groceries', 'text/markdown', '- oat milk\n- coffee beans\n- lemons'],
  [
    'ideas',
    'Project ideas',
    'text/markdown',
    '1. Diagram editor with an approval gate\n2. Storefront navigation by voice',
  ],
  ['config', 'Editor settings', 'application/json', '{"theme":"light","fontSize":14}'],
] as const;

const mirrored = [
  ['q3-report', 'Q3 report.txt', 'Revenue grew 12% quarter over quarter.'],
  ['roadmap', 'Roadmap.txt', 'Q1: browser tools. Q2: hub. Q3: scale-out on PostgreSQL.'],
  ['contacts', 'Contacts.txt', 'Ana — design; Ben — billing; Chen — support.'],
] as const;

/** The first-run demo: an inbox with messages, a storage collection and a read-only external mirror. */
export async function seedDemoData(db: Kysely<Database>, accountId: string, now: number): Promise<void> {
  await createCollection(db, accountId, { id: 'inbox', kind: 'inbox', title: 'Inbox' }, now);
  await createCollection(db, accountId, { id: 'notes', kind: 'storage', title: 'Notes' }, now);
  await createCollection(
    db,
    accountId,
    { id: 'drive', kind: 'external', title: 'Drive (mirror)', provider: 'Example Drive' },
    now,
  );
  const rows = [
    ...messages.map(([id, title, from, body], index) => ({
      collection_id: 'inbox',
      id,
      title,
      content_type: 'text/plain',
      content: body,
      metadata: JSON.stringify({
        from,
        receivedAt: new Date(now - index * 37 * MINUTE).toISOString(),
        read: index > 2,
        flagged: false,
        archived: false,
        labels: [],
      }),
      at: now - index * 37 * MINUTE,
    })),
    ...notes.map(([id, title, type, body], index) => ({
      collection_id: 'notes',
      id,
      title,
      content_type: type,
      content: body,
      metadata: null,
      at: now - index * 11 * MINUTE,
    })),
    ...mirrored.map(([id, title, body], index) => ({
      collection_id: 'drive',
      id,
      title,
      content_type: 'text/plain',
      content: body,
      metadata: null,
      at: now - index * 90 * MINUTE,
    })),
  ];
  await insertItemRows(
    db,
    rows.map(({ at, ...row }) => ({
      ...row,
      account_id: accountId,
      version: 1,
      size_bytes: byteSize(row.content),
      created_at: at,
      updated_at: at,
    })),
  );
}
