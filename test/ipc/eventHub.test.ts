// The wallet's push events: delivered to every subscriber of their name, stopped by unsubscribing, and one failing
// listener does not keep the others from their events.
import { describe, expect, it } from 'vitest';
import { IPC_EVENTS, type HeadInfo, type VaultStatus } from '../../src-main/ipc/contract.ts';
import { createEventHub, forwardEvents } from '../../src-main/ipc/eventHub.ts';

const LOCKED: VaultStatus = { exists: true, unlocked: false, storage: 'keychain', autoLockMinutes: 5 };
const HEAD: HeadInfo = {
  networkId: 'local',
  chainId: 'EiA',
  height: '5',
  time: '1',
  lastIrreversible: '0',
  lagMs: '0',
  stale: false,
};

describe('event hub', () => {
  it('delivers each event to its subscribers only, until they unsubscribe', () => {
    const hub = createEventHub(() => {});
    const heads: HeadInfo[] = [];
    const locks: VaultStatus[] = [];
    const off = hub.on('head:new', (head) => heads.push(head));
    hub.on('vault:lockState', (status) => locks.push(status));
    hub.emit('head:new', HEAD);
    hub.emit('vault:lockState', LOCKED);
    off();
    hub.emit('head:new', { ...HEAD, height: '6' });
    expect(heads).toEqual([HEAD]);
    expect(locks).toEqual([LOCKED]);
  });

  it('keeps delivering when one listener throws, and logs it', () => {
    const lines: string[] = [];
    const hub = createEventHub((line) => lines.push(line));
    const got: string[] = [];
    hub.on('head:new', () => {
      throw new Error('listener bug');
    });
    hub.on('head:new', (head) => got.push(head.height));
    hub.emit('head:new', HEAD);
    expect(got).toEqual(['5']);
    expect(lines).toEqual(['[ipc] a listener of head:new failed: listener bug']);
  });

  it('forwards every event of the contract until stopped', () => {
    const hub = createEventHub(() => {});
    const sent: [string, unknown][] = [];
    const stop = forwardEvents(hub, (event, payload) => sent.push([event, payload]));
    hub.emit('head:new', HEAD);
    hub.emit('vault:lockState', LOCKED);
    hub.emit('tx:update', { transactionId: '0x12', networkId: 'local', status: 'included', blockHeight: '7' });
    hub.emit('approvals:changed', { mode: 'dialog', pending: [] });
    const target = { networkId: 'local', transactionId: '0x12' };
    hub.emit('notifications:new', {
      id: 'tx:0x12:included',
      title: 'Transaction included',
      body: 'Sending 1 KOIN is in block 7.',
      target,
    });
    hub.emit('notifications:open', target);
    hub.emit('history:exportProgress', { exportId: 'e-1', scanned: 10, total: 20, done: false });
    hub.emit('dapps:changed', {
      grants: [],
      walletConnect: { relayUrl: 'ws://127.0.0.1:1', hasProjectId: true, source: 'env', state: 'off' },
    });
    hub.emit('networks:changed', { networks: [], selectedId: 'local' });
    stop();
    hub.emit('head:new', HEAD);
    expect(sent.map(([event]) => event)).toEqual([...IPC_EVENTS]);
    expect(sent[2]![1]).toEqual({ transactionId: '0x12', networkId: 'local', status: 'included', blockHeight: '7' });
  });
});
