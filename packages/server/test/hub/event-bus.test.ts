import type { HubEvent } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/hub/events/event-bus.js';

const event = (id: number) => ({ id, type: 'turn.cancelled', turnId: 't', at: '' }) as unknown as HubEvent;

/** A bus with one listener on `conversation`, recording what it hears ("read" for a wake-up). */
function listening(conversation = 'cnv_a') {
  const bus = createEventBus();
  const heard: (number | 'read')[] = [];
  const stop = bus.subscribe(conversation, (each) => heard.push(each ? each.id : 'read'));
  return { bus, heard, stop };
}

describe('the event bus', () => {
  it('hands each published event to the conversation’s listeners, and no other’s', () => {
    const { bus, heard } = listening();
    const other: unknown[] = [];
    bus.subscribe('cnv_b', (each) => other.push(each));
    bus.publish('cnv_a', event(1));
    bus.wake('cnv_a');
    expect(heard).toEqual([1, 'read']);
    expect(other).toEqual([]);
    bus.wakeAll();
    expect(heard).toEqual([1, 'read', 'read']);
    expect(other).toEqual([undefined]);
  });

  it('does not wake a stream for a log it has just read up to, only for what comes after', () => {
    const { bus, heard } = listening();
    // A stream opened and read its backlog to event 40: a look finding 40 has nothing new for it.
    bus.readUpTo('cnv_a', 40);
    bus.logReaches('cnv_a', 40);
    expect(heard).toEqual([]);
    bus.readUpTo('cnv_a', 12);
    bus.logReaches('cnv_a', 41);
    expect(heard).toEqual(['read']);
    // With nobody listening it keeps nothing: a later stream starts from what it reads itself.
    const quiet = createEventBus();
    quiet.readUpTo('cnv_z', 9);
    const late: unknown[] = [];
    quiet.subscribe('cnv_z', (each) => late.push(each));
    quiet.logReaches('cnv_z', 9);
    expect(late).toEqual([undefined]);
  });

  it('wakes on the log watch’s finding only past the newest event it knows, once', () => {
    const { bus, heard } = listening();
    bus.logReaches('cnv_a', 2);
    expect(heard).toEqual(['read']);
    bus.logReaches('cnv_a', 2);
    bus.logReaches('cnv_a', 1);
    expect(heard).toEqual(['read']);
    // What this process published is known: the watch finding it wakes nobody.
    bus.publish('cnv_a', event(3));
    bus.logReaches('cnv_a', 3);
    expect(heard).toEqual(['read', 3]);
    // Appends can be published out of order; the older one does not lower what is known.
    bus.publish('cnv_a', event(5));
    bus.publish('cnv_a', event(4));
    bus.logReaches('cnv_a', 5);
    expect(heard).toEqual(['read', 3, 5, 4]);
    bus.logReaches('cnv_a', 6);
    expect(heard).toEqual(['read', 3, 5, 4, 'read']);
  });

  it('remembers nothing for a conversation nobody watches, and forgets one when its last listener leaves', () => {
    const bus = createEventBus();
    bus.publish('cnv_a', event(7));
    bus.logReaches('cnv_a', 7);
    expect(bus.watched()).toEqual([]);
    const heard: unknown[] = [];
    const stop = bus.subscribe('cnv_a', (each) => heard.push(each));
    // Published before anyone listened: not known, so the watch's finding still wakes.
    bus.logReaches('cnv_a', 7);
    expect(heard).toEqual([undefined]);
    const second = bus.subscribe('cnv_a', () => {});
    stop();
    // One listener left: still known.
    bus.logReaches('cnv_a', 7);
    expect(heard).toEqual([undefined]);
    expect(bus.watched()).toEqual(['cnv_a']);
    second();
    expect(bus.watched()).toEqual([]);
    // Watched again from scratch: the same finding wakes the new listener.
    const again: unknown[] = [];
    bus.subscribe('cnv_a', (each) => again.push(each));
    bus.logReaches('cnv_a', 7);
    expect(again).toEqual([undefined]);
  });

  it('stops handing events to a listener that unsubscribed', () => {
    const { bus, heard, stop } = listening();
    stop();
    bus.publish('cnv_a', event(1));
    bus.wakeAll();
    expect(heard).toEqual([]);
  });
});
