// The notice of a network's chain ID change (a testnet restart) outlives a restart of the wallet, and stays until the
// user dismisses it: the change is kept in chain-settings.json beside the last chain IDs.
import { describe, expect, it } from 'vitest';
import { startDevnet } from '../../../src-main/devnet/server/startDevnet.ts';
import { MemoryApiKeyStore } from '../../../src-main/wallet/chain/apiKeyStore.ts';
import { FileChainSettings } from '../../../src-main/wallet/chain/chainSettings.ts';
import { NetworkService } from '../../../src-main/wallet/chain/networks.ts';
import { onCleanup, tempDir } from './helpers.ts';
import { expectWalletError } from '../../helpers/expectWalletError.ts';

describe('the chain ID change notice', () => {
  it('is reported after the wallet restarts, until it is dismissed', async () => {
    const chainDir = await tempDir();
    const walletDir = await tempDir();
    const options = { dataDir: chainDir, blockTimeMs: 0, accounts: 1, signatureThreads: 0, log: () => {} };
    let devnet = await startDevnet({ port: 0, ...options });
    onCleanup(() => devnet.stop());
    const port = Number(new URL(devnet.url).port);
    // A wallet run: its own settings store over the folder, as createWalletApp builds one.
    const run = () =>
      new NetworkService({
        settings: new FileChainSettings(walletDir),
        apiKeys: new MemoryApiKeyStore(),
        localDevnetUrl: async () => devnet.url,
      });

    const oldChain = devnet.chainId;
    expect((await run().head('local')).chainIdChanged).toBeUndefined();
    await devnet.stop();
    devnet = await startDevnet({ port, ...options, reset: true });

    const change = { previous: oldChain, current: devnet.chainId };
    expect((await run().head('local')).chainIdChanged).toEqual(change);
    const later = run();
    expect((await later.head('local')).chainIdChanged).toEqual(change);

    await later.dismissChainIdChange('local');
    expect((await later.head('local')).chainIdChanged).toBeUndefined();
    expect((await run().head('local')).chainIdChanged).toBeUndefined();
    expect((await expectWalletError(later.dismissChainIdChange('nowhere'))).code).toBe('NOT_FOUND');
  });
});
