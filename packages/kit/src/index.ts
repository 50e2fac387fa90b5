import type { Diosc } from './diosc.js';
import { installPageDiosc } from './page-diosc.js';

export type {
  ApprovalSeverity,
  BrowserAdapter,
  BrowserToolHandler,
  ConsensusView,
  ConsensusViewDetail,
  ConversationMessage,
  DiffRow,
  FileDescriptor,
  InitOptions,
  IntentApproval,
  IntentDefinition,
  IntentFileEmission,
  IntentResult,
  KitEventName,
  KitEvents,
  NavigationHandler,
  PageSnapshot,
  ScriptUrlPolicy,
} from './types.js';
export type { Diosc };

/**
 * The page's kit. The same instance as the `<script async>` build's `window.diosc`.
 *
 * @example
 * import { diosc } from '@diosc/kit';
 * diosc('init', { hubUrl: 'https://hub.example', publishableKey: 'pk_live_1234abcd' });
 * diosc('tool', 'highlight_row', ({ id }) => ({ highlighted: id }));
 */
export const diosc: Diosc = installPageDiosc();
