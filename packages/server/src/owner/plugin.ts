import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: filled in by the owner feature. */
export const ownerPlugin: FastifyPluginAsync = async () => {};
