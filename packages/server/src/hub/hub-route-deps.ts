import type { FileDescriptor } from '@diosc/protocol';
import type { HubServices } from './hub-services.js';
import type { TurnRunner } from './turns/turn-runner.js';

/** What the hub's route plugins need: the services, the runner, and the file checks. */
export interface HubRouteDeps {
  hub: HubServices;
  runner: TurnRunner;
  files: {
    /** The descriptors of files this conversation's visitor uploaded; `invalid_input` for others. */
    attachments(fileIds: string[], conversationId: string): Promise<FileDescriptor[]>;
    /** The stored descriptor of a file uploaded for this interrupt of this conversation, if any. */
    descriptorFor(
      fileId: string,
      conversationId: string,
      interruptId: string,
    ): Promise<FileDescriptor | undefined>;
  };
}
