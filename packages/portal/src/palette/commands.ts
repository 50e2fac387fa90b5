import type { CollectionRow } from '@diosc/protocol';
import type { Portal } from '../app/portal.js';
import { currentLanguage, setLanguage, t } from '../i18n/i18n.js';
import { assistantPath, collectionPath, PATHS } from '../router/router.js';

export interface Command {
  id: string;
  /** Translated label and extra words to match on (both languages' words help bilingual owners). */
  title: string;
  keywords: string;
  group: string;
  shortcut?: string;
  run(): void;
}

/** Everything the palette offers, in the active language. */
export function buildCommands(
  portal: Portal,
  collections: readonly CollectionRow[],
  assistants: readonly { id: string; name: string }[] = [],
): Command[] {
  const go = (path: string) => () => portal.router.navigate(path);
  const commands: Command[] = [
    {
      id: 'go-automation',
      title: t('palette.commands.automation'),
      keywords: 'automation hub browser tools webmcp agent g h',
      group: t('palette.groups.navigate'),
      shortcut: 'g h',
      run: go(PATHS.automationHub),
    },
    {
      id: 'go-collections',
      title: t('palette.commands.collections'),
      keywords: 'collections inbox notes storage files',
      group: t('palette.groups.navigate'),
      shortcut: 'g c',
      run: go(PATHS.collections),
    },
    {
      id: 'go-apps',
      title: t('palette.commands.apps'),
      keywords: 'connected apps mcp tokens assistants connections',
      group: t('palette.groups.navigate'),
      shortcut: 'g a',
      run: go(PATHS.connectedApps),
    },
    {
      id: 'go-assistants',
      title: t('palette.commands.assistants'),
      keywords: 'assistants asistentes widget embed chat sitemap conversations g s',
      group: t('palette.groups.navigate'),
      shortcut: 'g s',
      run: go(PATHS.assistants),
    },
    {
      id: 'new-assistant',
      title: t('palette.commands.newAssistant'),
      keywords: 'new create assistant nuevo crear asistente',
      group: t('palette.groups.assistants'),
      run: go(assistantPath('new')),
    },
    ...assistants.flatMap((assistant) => [
      {
        id: `assistant-${assistant.id}`,
        title: t('palette.commands.openAssistant', { name: assistant.name }),
        keywords: `${assistant.id} assistant asistente`,
        group: t('palette.groups.assistants'),
        run: go(assistantPath(assistant.id)),
      },
      {
        id: `assistant-conversations-${assistant.id}`,
        title: t('palette.commands.assistantConversations', { name: assistant.name }),
        keywords: `${assistant.id} conversations transcripts conversaciones`,
        group: t('palette.groups.assistants'),
        run: go(assistantPath(assistant.id, 'conversations')),
      },
      {
        id: `assistant-embed-${assistant.id}`,
        title: t('palette.commands.assistantEmbed', { name: assistant.name }),
        keywords: `${assistant.id} embed snippet script insertar`,
        group: t('palette.groups.assistants'),
        run: go(assistantPath(assistant.id, 'embed')),
      },
    ]),
    ...collections.map((row) => ({
      id: `open-${row.id}`,
      title: t('palette.commands.openCollection', { title: row.title }),
      keywords: `${row.id} ${row.kind}`,
      group: t('palette.groups.collections'),
      run: go(collectionPath(row.id)),
    })),
    {
      id: 'language',
      title: t('palette.commands.language'),
      keywords: 'language idioma english español spanish',
      group: t('palette.groups.preferences'),
      run: () => void setLanguage(currentLanguage() === 'en' ? 'es' : 'en'),
    },
    {
      id: 'sign-out',
      title: t('palette.commands.signOut'),
      keywords: 'sign out log out logout salir cerrar sesión',
      group: t('palette.groups.account'),
      run: () => void portal.signOut(),
    },
  ];
  return commands;
}
