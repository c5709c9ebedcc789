// Preload of a dApp window: runs the kondor bridge in the page's top frame with an IPC transport. Exposes nothing on
// window (kondor-js speaks through postMessage); the origin is read by main from the sending frame, never sent from here.
import { ipcRenderer } from 'electron';
import { startKondorBridge, type BridgeWindow } from '../dappBridge/kondorBridge.ts';
import { KONDOR_IPC_CHANNEL, type KondorAnswer } from '../../wallet/dapps/kondorCommands.ts';

// The Node tsconfig has no DOM; in the sandboxed preload, window is the page's window (seen from the isolated world).
declare const window: BridgeWindow;

startKondorBridge(
  window,
  (command, args) => ipcRenderer.invoke(KONDOR_IPC_CHANNEL, { command, args }) as Promise<KondorAnswer>,
);
