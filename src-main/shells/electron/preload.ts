// Preload for the sandboxed wallet window: exposes `window.koinos.call()` and `on()` for the contract's channels and events only.
// Built as CommonJS because sandboxed preloads cannot load ES modules; raw ipcRenderer is never exposed.
import { contextBridge, ipcRenderer } from 'electron';
import { describe } from '../../koinos/errors.ts';
import { isIpcChannel, isIpcEvent, type IpcResult, type KoinosBridge } from '../../ipc/contract.ts';

const bridge: KoinosBridge = {
  call(channel, ...args) {
    if (!isIpcChannel(channel)) {
      const refused: IpcResult<never> = {
        ok: false,
        error: { code: 'INVALID_ARGUMENT', shortMessage: `expected a wallet IPC channel, got ${describe(channel)}` },
      };
      return Promise.resolve(refused);
    }
    return ipcRenderer.invoke(channel, ...args);
  },
  on(event, listener) {
    if (!isIpcEvent(event)) throw new TypeError(`expected a wallet event name, got ${describe(event)}`);
    if (typeof listener !== 'function') throw new TypeError(`expected a listener function, got ${describe(listener)}`);
    const forward = (_event: unknown, payload: Parameters<typeof listener>[0]) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => void ipcRenderer.off(event, forward);
  },
};

contextBridge.exposeInMainWorld('koinos', bridge);
