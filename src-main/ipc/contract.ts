// The one IPC contract between the renderer and main: channel names, their arguments and results, and the
// envelope every call answers with. Types only plus one runtime list, so the renderer and preload may import it.

/** What a wallet screen learns about the embedded local devnet. */
export interface DevnetStatus {
  /** Base URL of the devnet's HTTP server (JSON-RPC at `${url}/jsonrpc`). */
  url: string;
  /** Chain ID as the node reports it. */
  chainId: string;
  /** Head block height, a decimal string (64-bit on the wire). */
  headHeight: string;
}

/** Every channel, named `area:verb`, with the arguments the renderer sends and the value main answers. */
export interface IpcContract {
  'devnet:status': { args: []; result: DevnetStatus };
}

export type IpcChannel = keyof IpcContract;
export type IpcArgs<C extends IpcChannel> = IpcContract[C]['args'];
export type IpcValue<C extends IpcChannel> = IpcContract[C]['result'];

// A record rather than an array so that the compiler fails when a channel of IpcContract is left out.
const CHANNEL_SET: Record<IpcChannel, true> = { 'devnet:status': true };

/** The names of every channel, for the preload's allow-list and main's handler registration. */
export const IPC_CHANNELS = Object.freeze(Object.keys(CHANNEL_SET) as IpcChannel[]);

/** An error as it crosses the boundary: a code from the catalog, a sentence a user can read, the technical cause. */
export interface IpcError {
  code: string;
  shortMessage: string;
  details?: string;
}

/** Every call answers this envelope; nothing is thrown across the boundary (IPC rejections lose custom fields). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** True when `name` is one of the contract's channels. */
export function isIpcChannel(name: unknown): name is IpcChannel {
  return typeof name === 'string' && (IPC_CHANNELS as readonly string[]).includes(name);
}

/** What the preload exposes as `window.koinos`: one function, restricted to the contract's channels. */
export interface KoinosBridge {
  call<C extends IpcChannel>(channel: C, ...args: IpcArgs<C>): Promise<IpcResult<IpcValue<C>>>;
}
