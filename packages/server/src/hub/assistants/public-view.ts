import type { AssistantPublicView } from '@diosc/protocol';
import type { AssistantRecord } from './assistants.js';

/** What a page may know about an assistant: no instructions, no secrets, no server-tool config. */
export function publicView(assistant: AssistantRecord, modelLabel: string): AssistantPublicView {
  const { config } = assistant;
  return {
    id: assistant.id,
    name: config.name,
    browserTools: config.browserTools.map((tool) => ({ ...tool })),
    files: {
      enabled: config.files.enabled,
      maxFileBytes: config.files.maxFileBytes,
      allowedTypes: [...config.files.allowedTypes],
    },
    modelLabel,
    outsideLinks: config.outsideLinks ?? false,
  };
}
