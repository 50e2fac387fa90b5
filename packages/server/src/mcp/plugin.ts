import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: filled in by the mcp feature. */
export const mcpPlugin: FastifyPluginAsync = async () => {};
