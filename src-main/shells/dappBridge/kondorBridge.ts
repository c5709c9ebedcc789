// The page side of kondor-js pages: what Kondor's content script does, for a page the wallet opened. Listens to the
// messages kondor-js posts on the top window, hands known commands to the transport it is given, and posts the answer
// back. Pure (no electron, no node:*): the dApp window's preload runs it, and a test page in Chromium runs it as is.
import {
  MAX_KONDOR_REQUEST_CHARS,
  isKondorCommand,
  type KondorAnswer,
  type KondorCommand,
} from '../../wallet/dapps/kondorCommands.ts';

/** Carries one command to the wallet, which answers it. It names no origin: the wallet reads that from the frame. */
export type KondorTransport = (command: KondorCommand, args: unknown) => Promise<KondorAnswer>;

/** The part of a window the bridge uses. */
export interface BridgeWindow {
  readonly top: unknown;
  addEventListener(type: 'message', listener: (event: { data: unknown; source: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown; source: unknown }) => void): void;
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Requests waiting for the wallet at once; more are answered with an error (a page cannot pile up work in main). */
const MAX_IN_FLIGHT = 16;
const MAX_ID_CHARS = 200;

/**
 * Starts answering kondor-js on `win` when it is a top-level window (in a frame it does nothing: only the page the
 * person opened speaks for its origin). Returns a function that stops it.
 * @example
 * startKondorBridge(window, (command, args) => ipcRenderer.invoke('kondor:request', { command, args }));
 */
export function startKondorBridge(win: BridgeWindow, transport: KondorTransport): () => void {
  // Compared as the page sees it: a frame's `top` is another window.
  if ((win as unknown) !== win.top) return () => {};
  let inFlight = 0;
  let stopped = false;
  const answer = (id: string, reply: KondorAnswer): void => {
    if (stopped) return;
    // kondor-js ignores a message with a `command` (its own requests), so the answer carries only id and result/error.
    // The message goes to this same window; '*' only because a page's own origin may be opaque.
    win.postMessage('error' in reply ? { id, error: reply.error } : { id, result: reply.result }, '*');
  };
  const listener = (event: { data: unknown; source: unknown }): void => {
    // Only what this window posted to itself: a frame's or an opener's message has another source.
    if (event.source !== (win as unknown)) return;
    const request = readRequest(event.data);
    if (!request) return;
    if ('tooLarge' in request) return answer(request.id, { error: 'This request is too large for the wallet.' });
    const { id, command, args } = request;
    if (!isKondorCommand(command))
      return answer(id, { error: `This wallet does not know the command ${JSON.stringify(command).slice(0, 80)}.` });
    if (inFlight >= MAX_IN_FLIGHT)
      return answer(id, { error: 'Too many requests are waiting for the wallet. Wait for them, then ask again.' });
    inFlight++;
    transport(command, args)
      .then(
        (reply) => answer(id, isAnswer(reply) ? reply : { error: 'The wallet could not answer this request.' }),
        () => answer(id, { error: 'The wallet could not answer this request.' }),
      )
      .finally(() => inFlight--);
  };
  win.addEventListener('message', listener);
  return () => {
    stopped = true;
    win.removeEventListener('message', listener);
  };
}

/**
 * A kondor-js request `{id, command, args}`; undefined for anything else on the channel (answers, other libraries'
 * messages, an id too long to echo); `tooLarge` for arguments over the cap or not JSON.
 */
function readRequest(
  data: unknown,
): { id: string; command: string; args: unknown } | { id: string; tooLarge: true } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { id, command, args } = data as Record<string, unknown>;
  if (typeof id !== 'string' || typeof command !== 'string' || id.length > MAX_ID_CHARS) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(args ?? null);
  } catch {
    return { id, tooLarge: true };
  }
  if (text === undefined || text.length > MAX_KONDOR_REQUEST_CHARS) return { id, tooLarge: true };
  // A copy made of JSON only: nothing the page holds a reference to travels on.
  return { id, command, args: JSON.parse(text) as unknown };
}

function isAnswer(v: unknown): v is KondorAnswer {
  if (typeof v !== 'object' || v === null) return false;
  return 'result' in v || ('error' in v && typeof (v as { error: unknown }).error === 'string');
}
