// What the preload (src-main/shells/electron/preload.ts) exposes on window: one call() on the IPC contract.
import type { KoinosBridge } from '../src-main/ipc/contract.ts';

declare global {
  interface Window {
    readonly koinos: KoinosBridge;
  }
}
