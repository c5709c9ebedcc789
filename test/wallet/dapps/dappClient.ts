// The dApp side of WalletConnect in the tests: a raw SignClient pointed at the test relay (the dApp SDK's Node class
// drops relayUrl), with its state in memory, and the requests the SDK would send.
import { SignClient } from '@walletconnect/sign-client';

/** An in-memory key-value store of the shape the client needs. */
class MemoryStorage {
  readonly #map = new Map<string, unknown>();
  async getKeys(): Promise<string[]> {
    return [...this.#map.keys()];
  }
  async getEntries<T>(): Promise<[string, T][]> {
    return [...this.#map.entries()] as [string, T][];
  }
  async getItem<T>(key: string): Promise<T | undefined> {
    return this.#map.get(key) as T | undefined;
  }
  async setItem<T>(key: string, value: T): Promise<void> {
    this.#map.set(key, value);
  }
  async removeItem(key: string): Promise<void> {
    this.#map.delete(key);
  }
}

/** The koinos_* methods the dApp SDK asks for (its README's full list). */
export const SDK_METHODS = [
  'koinos_signMessage',
  'koinos_signHash',
  'koinos_prepareTransaction',
  'koinos_signTransaction',
  'koinos_signAndSendTransaction',
  'koinos_waitForTransaction',
  'koinos_sendTransaction',
  'koinos_readContract',
  'koinos_JsonRpcCall',
  'koinos_getNonce',
  'koinos_getNextNonce',
  'koinos_getAccountRc',
  'koinos_getTransactionsById',
  'koinos_getBlocksById',
  'koinos_getHeadInfo',
  'koinos_getChainId',
  'koinos_getBlocks',
  'koinos_getBlock',
  'koinos_submitBlock',
];

export type DappClient = Awaited<ReturnType<typeof SignClient.init>>;

/** A dApp's SignClient on the relay at `relayUrl`, declaring `url` as its address. */
export async function dappClient(relayUrl: string, url = 'https://dapp.example'): Promise<DappClient> {
  process.env['DISABLE_GLOBAL_CORE'] = 'true';
  return SignClient.init({
    projectId: 'test-project',
    relayUrl,
    storage: new MemoryStorage() as never,
    telemetryEnabled: false,
    logger: 'silent',
    metadata: { name: 'Test dApp', description: 'A dApp of the tests', url, icons: [] },
  });
}

/** Closes the client's relay connection and timers. */
export async function closeDapp(client: DappClient): Promise<void> {
  await client.core.relayer.transportClose().catch(() => undefined);
  client.core.heartbeat.stop();
}

/**
 * Proposes a session as a dApp does and listens for the wallet's answer at once. The listening cannot wait:
 * @walletconnect/utils' createDelayedPromise drops a settlement that arrives before `approval()` is called, so a dApp
 * that calls it late (after the person has already approved in the wallet) waits until the proposal expires.
 */
export async function proposeSession(
  client: DappClient,
  params: Parameters<DappClient['connect']>[0],
): Promise<{ uri: string; session: ReturnType<Awaited<ReturnType<DappClient['connect']>>['approval']> }> {
  const { uri, approval } = await client.connect(params);
  const session = approval();
  session.catch(() => undefined); // awaited by the caller; this only keeps an early expiry from going unhandled
  return { uri: uri!, session };
}
