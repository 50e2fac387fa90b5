import type { ConsensusDecision, ConversationView, HubEvent, InterruptAnswer, SendMessageRequest, VisitorSessionView } from '@diosc/protocol';
export interface Reply<T = unknown> {
    status: number;
    body: T;
    headers: Headers;
}
/**
 * A Node client that speaks the kit's protocol over real HTTP — what `@diosc/kit` does in a page,
 * without the page. Every call records its request body size, for the bytes-upstream checks.
 */
export declare class HubClient {
    readonly base: string;
    readonly origin: string;
    token: string | undefined;
    readonly sent: {
        path: string;
        bytes: number;
    }[];
    constructor(base: string, origin: string);
    request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
    open(publishableKey: string, identity?: string): Promise<VisitorSessionView>;
    conversation(): Promise<string>;
    send(conversationId: string, message: SendMessageRequest): Promise<Reply<{
        turnId: string;
        messageId: string;
    }>>;
    answer(interruptId: string, answer: InterruptAnswer): Promise<Reply<{
        status: string;
    }>>;
    decide(consensusId: string, decision: ConsensusDecision): Promise<Reply<{
        status: string;
    }>>;
    cancel(turnId: string): Promise<Reply<unknown>>;
    view(conversationId: string): Promise<Reply<ConversationView>>;
    /** Opens the event stream; events arrive in `stream.events` and wake `next()` waiters. */
    stream(conversationId: string, lastEventId?: number): EventStream;
}
/** Reads a conversation's SSE stream with fetch (a bearer header, as the kit does). */
export declare class EventStream {
    #private;
    readonly events: HubEvent[];
    readonly ready: Promise<void>;
    constructor(client: HubClient, conversationId: string, lastEventId?: number);
    /** Waits until an event matching `predicate` has arrived (or `timeoutMs` passes) and returns it. */
    until<T extends HubEvent['type']>(type: T, predicate?: (event: Extract<HubEvent, {
        type: T;
    }>) => boolean, timeoutMs?: number): Promise<Extract<HubEvent, {
        type: T;
    }>>;
    ofType<T extends HubEvent['type']>(type: T): Extract<HubEvent, {
        type: T;
    }>[];
    close(): void;
}
