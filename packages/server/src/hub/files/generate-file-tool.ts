import { DioscError, type FileDescriptor } from '@diosc/protocol';
import { filesPermissionOf } from '../assistants/assistant-config.js';
import type { AssistantRecord } from '../assistants/assistants.js';
import type { ServerTool } from '../server-tools/server-tool.js';
import { descriptorOf } from './file-descriptor.js';
import { extensionsOf, formatOf, mediaTypeOfFormat } from './file-formats.js';
import type { HubFiles } from './hub-files.js';

export const GENERATE_FILE_TOOL = 'generate_file';

/** The result the model reads when a file could not be delivered; never a thrown error. */
export interface GenerateFileFailure {
  success: false;
  error: string;
}

/**
 * The built-in `generate_file` server tool: the model supplies a filename, a format and the
 * content; the hub checks and stores it like an upload and returns the same byte-free descriptor a
 * page's file gets. HTML and SVG are stored as attachments and never rendered by the hub.
 */
export function generateFileTool(files: HubFiles, assistant: AssistantRecord): ServerTool {
  const config = assistant.config.serverTools.generateFile;
  const permission = filesPermissionOf(assistant.config);
  const formats = config.formats.filter((format) => mediaTypeOfFormat(format) !== undefined);
  return {
    name: GENERATE_FILE_TOOL,
    description: [
      `Create a file the visitor can download (format: ${formats.join(', ')}; at most ${config.maxBytes} bytes of UTF-8 content).`,
      'The visitor sees a download chip; you get back { fileId, filename, format, downloadUrl, sizeBytes } and never need to repeat the content.',
    ].join(' '),
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['filename', 'format', 'content'],
      properties: {
        filename: { type: 'string', minLength: 1, maxLength: 255, description: 'e.g. "report.csv"' },
        format: { enum: formats },
        content: { type: 'string', description: 'The whole file as text.' },
      },
    },
    async execute(args, context): Promise<FileDescriptor | GenerateFileFailure> {
      try {
        // A repeated call (a resumed turn) finds the file it already wrote.
        const existing = await files.store.ofToolCall(context.toolCallId);
        if (existing) return descriptorOf(existing);
        const format = String(args.format);
        const mediaType = mediaTypeOfFormat(format);
        if (!mediaType || !formats.includes(format))
          throw new DioscError(
            'file_type_not_allowed',
            `The format "${format}" is not enabled; use one of ${formats.join(', ')}.`,
          );
        const content = String(args.content ?? '');
        checkContent(format, content);
        const row = await files.write({
          bytes: [Buffer.from(content, 'utf8')],
          owner: {
            assistantId: context.assistantId,
            conversationId: context.conversationId,
            visitorId: context.visitorId,
          },
          source: 'generated',
          toolCallId: context.toolCallId,
          filename: String(args.filename ?? ''),
          storedType: { mediaType, format: formatOf(mediaType), extensions: extensionsOf(mediaType) },
          maxFileBytes: config.maxBytes,
          permission,
        });
        return descriptorOf(row);
      } catch (error) {
        const message = DioscError.isInstance(error) ? error.message : 'The file could not be stored.';
        return { success: false, error: message };
      }
    },
    filesOf: (value) => (isDescriptor(value) ? [value] : []),
  };
}

/** The content must be what its format says; HTML and text are taken as they are. */
function checkContent(format: string, content: string): void {
  if (format === 'json') {
    try {
      JSON.parse(content);
    } catch {
      throw new DioscError('file_type_mismatch', 'The content is not valid JSON.');
    }
  }
  if (
    format === 'svg' &&
    !/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(content)
  )
    throw new DioscError(
      'file_type_mismatch',
      'The content is not an SVG document (it must start with <svg).',
    );
}

function isDescriptor(value: unknown): value is FileDescriptor {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as FileDescriptor).fileId === 'string' &&
    typeof (value as FileDescriptor).downloadUrl === 'string'
  );
}
