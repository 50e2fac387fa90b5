import { DIALECTS, type TestServer } from '@diosc/server/testing';
import type { FastifyInstance } from 'fastify';
import type { AssistantRecord } from '../../../src/hub/assistants/assistants.js';
import type { HubOptions } from '../../../src/hub/hub-context.js';
import { type Script, type ScriptedModel } from '../../../src/hub/model/scripted/scripted-model.js';
import { HubClient } from './hub-client.js';
export interface HubTestServer extends TestServer {
    model: ScriptedModel;
    assistant: AssistantRecord;
    /** The origin the test assistant allows (a page that embeds the widget). */
    pageOrigin: string;
    client(origin?: string): HubClient;
    createAssistant(input: Record<string, unknown>): Promise<AssistantRecord>;
}
export declare const PAGE_ORIGIN = "http://shop.localhost:4173";
type Dialect = (typeof DIALECTS)[number];
/**
 * A hub suite once per store dialect (SQLite, and PostgreSQL when the test script started one);
 * `startHubServer` inside it opens the store of the suite's dialect.
 */
export declare function describeOnDialects(title: string, body: (dialect: Dialect) => void): void;
/**
 * The whole server on loopback with one assistant on a scripted model, plus a Node client that
 * speaks the kit's protocol.
 */
export declare function startHubServer(options?: {
    script?: Script;
    assistant?: Record<string, unknown>;
    dialect?: (typeof DIALECTS)[number];
    hub?: HubOptions;
    configure?: (app: FastifyInstance) => void;
}): Promise<HubTestServer>;
export {};
