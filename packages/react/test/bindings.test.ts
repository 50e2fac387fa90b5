// @vitest-environment happy-dom
import { act, createElement, type ReactNode, StrictMode, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFakeKit } from './fake-kit.js';

const kit = vi.hoisted(() => ({ current: undefined as ReturnType<typeof createFakeKit> | undefined }));
vi.mock('@diosc/kit', () => ({ diosc: (...args: unknown[]) => kit.current!.diosc(...(args as [string])) }));

const { DioscProvider, useBrowserAdapter, useDioscTool } = await import('../src/index.js');

beforeAll(() => {
  // React's test mode: `act` flushes effects and updates before it returns.
  Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });
});

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

function render(tree: ReactNode, strict = false) {
  const fake = createFakeKit();
  kit.current = fake;
  root = createRoot(document.createElement('div'));
  const rerender = (next: ReactNode) =>
    act(() => root!.render(strict ? createElement(StrictMode, null, next) : next));
  rerender(tree);
  return { state: fake.state, rerender };
}

const provider = (children: ReactNode, publishableKey = 'pk_test_12345678') =>
  createElement(DioscProvider, { hubUrl: 'https://hub.example', publishableKey }, children);

function Counter({ value }: { value: number }) {
  useDioscTool('read_value', () => ({ value }));
  return null;
}

/** Two components that own a tool of the same name. */
function Two({ first, second }: { first: boolean; second: boolean }) {
  return createElement(
    'div',
    null,
    first && createElement(Counter, { value: 1 }),
    second && createElement(Counter, { value: 2 }),
  );
}

/** A page whose adapter's snapshot and intent close over its state. */
function Filter() {
  const [month, setMonth] = useState('January');
  useBrowserAdapter({
    read: () => ({ url: '/reports', title: 'Reports', data: { month } }),
    intents: [
      {
        name: 'choose_month',
        description: 'Choose the month.',
        schema: { type: 'object', properties: { month: { type: 'string' } } },
        handler: (args: { month: string }) => {
          setMonth(args.month);
          return { success: true, data: { from: month } };
        },
      },
    ],
  });
  return null;
}

describe('useDioscTool', () => {
  it('registers once: later renders change what the handler sees, not the registration', async () => {
    const { state, rerender } = render(provider(createElement(Counter, { value: 1 })));
    const registrations = state.commands.length;
    rerender(provider(createElement(Counter, { value: 2 })));
    rerender(provider(createElement(Counter, { value: 3 })));
    expect(state.commands.length).toBe(registrations);
    expect(await state.tools.get('read_value')!({})).toEqual({ value: 3 });
  });

  it('stays registered through StrictMode’s mount, unmount and mount, and the kit started once in the end', async () => {
    const { state } = render(provider(createElement(Counter, { value: 7 })), true);
    expect(state.started - state.destroyed).toBe(1);
    expect(await state.tools.get('read_value')!({})).toEqual({ value: 7 });
  });

  it('is removed on unmount, and only by its owner: a newer component’s tool of that name stays', async () => {
    const { state, rerender } = render(provider(createElement(Two, { first: true, second: false })));
    rerender(provider(createElement(Two, { first: true, second: true })));
    rerender(provider(createElement(Two, { first: false, second: true })));
    expect(await state.tools.get('read_value')!({})).toEqual({ value: 2 });
    rerender(provider(createElement(Two, { first: false, second: false })));
    expect(state.tools.has('read_value')).toBe(false);
  });

  it('is applied again when the provider starts the kit afresh, which forgot it', async () => {
    const { state, rerender } = render(provider(createElement(Counter, { value: 1 })));
    rerender(provider(createElement(Counter, { value: 1 }), 'pk_test_87654321'));
    expect([state.started, state.destroyed]).toEqual([2, 1]);
    expect(await state.tools.get('read_value')!({})).toEqual({ value: 1 });
  });

  it('needs a provider', () => {
    expect(() => render(createElement(Counter, { value: 1 }))).toThrow(
      'useDioscTool needs a <DioscProvider> above it',
    );
  });
});

describe('useBrowserAdapter', () => {
  it('is set once, and its read and intents run with the latest render’s state', async () => {
    const { state } = render(provider(createElement(Filter)));
    const adapter = state.adapter!;
    const choose = adapter.intents![0]!;
    await act(async () => void (await choose.handler({ month: 'March' })));
    expect(state.adapter).toBe(adapter);
    expect(await adapter.read!()).toEqual({ url: '/reports', title: 'Reports', data: { month: 'March' } });
    expect(choose.handler({ month: 'May' })).toEqual({ success: true, data: { from: 'March' } });
  });
});
