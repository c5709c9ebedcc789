// The embedded devnet's change of shape against a wallet that keeps using it: a use that arrives while the old chain
// stops (the head poller asks for the URL every few hundred ms) waits for the new chain instead of restarting the old one.
import { describe, expect, it } from 'vitest';
import { EmbeddedDevnet } from '../../../src-main/wallet/chain/embeddedDevnet.ts';
import { onCleanup, tempDir } from './helpers.ts';

describe('changing the shape of the embedded devnet', () => {
  it('starts the new shape even when the devnet is used while the old chain stops', async () => {
    const devnet = new EmbeddedDevnet({
      dataDir: await tempDir(),
      port: 0,
      devnet: { blockTimeMs: 0, accounts: 1 },
      log: () => {},
    });
    onCleanup(() => devnet.stop());
    const plain = await devnet.status();
    expect(plain.running).toBe(false);
    await devnet.url();
    const before = await devnet.status();
    expect(before.shape).toBe('plain');

    const reshaping = devnet.setShape('mainnet');
    const meanwhile = devnet.url(); // what a poll does while the old chain stops
    const shaped = await reshaping;
    expect(shaped.shape).toBe('mainnet');
    expect(shaped.chainId).not.toBe(before.chainId);
    expect(await meanwhile).toBe(shaped.url);
    expect((await devnet.status()).shape).toBe('mainnet');
  });
});
