import { describe, expect, it } from 'vitest';
import { HUB_ROUTES, type HubRouteName, hubPath, matchHubRoute } from '../src/index.js';

const pathOf = hubPath as (name: HubRouteName, id?: string) => string;

describe('the hub route table', () => {
  it('builds each path and reads it back as the same route and id', () => {
    for (const [name, route] of Object.entries(HUB_ROUTES) as [
      HubRouteName,
      (typeof HUB_ROUTES)[HubRouteName],
    ][]) {
      const id = route.path.includes(':id') ? 'a b/c?d' : undefined;
      const path = pathOf(name, id);
      expect(path).not.toContain(' ');
      expect(matchHubRoute(route.method, path), name).toEqual({ name, id });
    }
  });

  it('percent-encodes an id into its one segment, so it cannot reach another route', () => {
    expect(hubPath('answerInterrupt', '../turns/x/cancel')).toBe(
      '/interrupts/..%2Fturns%2Fx%2Fcancel/answer',
    );
    expect(matchHubRoute('POST', '/interrupts/../turns/x/cancel/answer')).toBeUndefined();
  });

  it('matches nothing for another method, a missing or an extra segment, or a malformed escape', () => {
    expect(matchHubRoute('DELETE', '/conversations/c1')).toBeUndefined();
    expect(matchHubRoute('POST', '/conversations/c1/messages/extra')).toBeUndefined();
    expect(matchHubRoute('POST', '/conversations//messages')).toBeUndefined();
    expect(matchHubRoute('GET', '/files/%E0%A4%A')).toBeUndefined();
    expect(matchHubRoute('GET', '/conversations')).toEqual({ name: 'listConversations', id: undefined });
  });
});
