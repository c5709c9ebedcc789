// Preload for the sandboxed wallet window: exposes `window.koinos.call()` for the contract's channels only.
// Built as CommonJS because sandboxed preloads cannot load ES modules; raw ipcRenderer is never exposed.
import { contextBridge, ipcRenderer } from 'electron';
import { describe } from '../../koinos/errors.ts';
import { isIpcChannel, type IpcResult, type KoinosBridge } from '../../ipc/contract.ts';

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
};

contextBridge.exposeInMainWorld('koinos', bridge);
