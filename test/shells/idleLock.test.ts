// The wallet locks itself after the idle time; the user's calls through a shell count as activity, the reads the screens
// make by themselves do not: driven through the browser shell's HTTP bridge with a hand-driven clock, and seen as
// vault:lockState pushes.
import { describe, expect, it } from 'vitest';
import type { VaultStatus } from '../../src-main/ipc/contract.ts';
import { ManualClock } from '../wallet/vault/helpers.ts';
import { browserShells, ipc } from './browserShellHelpers.ts';

const MINUTE = 60_000;

describe('idle lock through the browser shell', () => {
  const start = browserShells();

  it('keeps the wallet unlocked while the user acts, and locks it once they stop, pushing vault:lockState', async () => {
    const clock = new ManualClock();
    const shell = await start({ vault: { clock } });
    const pushes: VaultStatus[] = [];
    shell.wallet.events.on('vault:lockState', (status) => pushes.push(status));

    expect((await ipc(shell, 'vault:create', [{ password: 'a long enough password' }])).json.value).toMatchObject({
      unlocked: true,
      autoLockMinutes: 5,
    });
    for (let i = 0; i < 4; i++) {
      clock.advance(4 * MINUTE);
      expect((await ipc(shell, 'settings:update', [{ theme: i % 2 ? 'dark' : 'light' }])).json.ok).toBe(true);
    }
    expect((await ipc(shell, 'vault:status')).json.value.unlocked).toBe(true); // 16 minutes after unlocking
    // The screens keep reading on their own (a refresh on every block): that is not the user, and does not hold it open.
    for (let i = 0; i < 4; i++) {
      clock.advance(MINUTE);
      expect((await ipc(shell, 'accounts:list')).json.ok).toBe(true);
    }
    clock.advance(MINUTE);
    expect(pushes.at(-1)).toMatchObject({ unlocked: false });
    expect((await ipc(shell, 'vault:status')).json.value.unlocked).toBe(false);
    const locked = await ipc(shell, 'accounts:newPhrase', [{ words: 12 }]);
    expect(locked.json.error.code).toBe('VAULT_LOCKED');
  });
});
