/**
 * Every page of the store. `assistant.yaml`'s Sitemap lists the ones the assistant may open (all but
 * an order's confirmation, which belongs to the shopper who placed it); a test keeps the two in step.
 */
export const ROUTES = ['/', '/products', '/products/:id', '/cart', '/checkout', '/orders/:id'] as const;
