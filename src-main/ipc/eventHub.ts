// Typed push events from main to the renderer (new head, lock state, transaction updates): the wallet emits them
// here, and each shell subscribes once and forwards them over its transport.
import { IPC_EVENTS, type IpcEvent, type IpcEvents } from './contract.ts';

export type IpcEventListener<E extends IpcEvent> = (payload: IpcEvents[E]) => void;

/** Where shells subscribe to the wallet's push events. */
export interface IpcEventSource {
  /** Subscribes; returns a function that unsubscribes. */
  on<E extends IpcEvent>(event: E, listener: IpcEventListener<E>): () => void;
}

export interface IpcEventHub extends IpcEventSource {
  emit<E extends IpcEvent>(event: E, payload: IpcEvents[E]): void;
}

/**
 * Makes an event hub. A listener that throws is reported to `log` and does not stop the others.
 * @example
 * const hub = createEventHub();
 * const off = hub.on('head:new', (head) => console.log(head.height));
 * hub.emit('head:new', head);
 * off();
 */
export function createEventHub(log: (line: string) => void = (line) => console.error(line)): IpcEventHub {
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = listener as (payload: unknown) => void;
      set.add(entry);
      return () => void set.delete(entry);
    },
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          listener(payload);
        } catch (error) {
          log(`[ipc] a listener of ${event} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
  };
}

/**
 * Forwards the push events of the contract (`events`, all by default) from `source` to `send` (a window's
 * webContents.send, an SSE stream). Returns a function that stops forwarding.
 */
export function forwardEvents(
  source: IpcEventSource,
  send: (event: IpcEvent, payload: unknown) => void,
  events: readonly IpcEvent[] = IPC_EVENTS,
): () => void {
  const offs = events.map((event) => source.on(event, (payload) => send(event, payload)));
  return () => offs.forEach((off) => off());
}
