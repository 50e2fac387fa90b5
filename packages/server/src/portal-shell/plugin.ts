import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: filled in by the portal-shell feature. */
export const portalShellPlugin: FastifyPluginAsync = async () => {};
