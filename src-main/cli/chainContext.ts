// What the CLI's network commands share: `--network local|testnet|mainnet|URL` and `--api-key-file F` turned into the
// wallet's own chain services (createChainServices, as the app builds them, with in-memory settings), a signer from
// `--wif-file`, and the command line as the approval. With `--data-dir DIR` (a wallet's data folder) the commands that
// send count and record that wallet's pending transactions (pending-transactions.json) and log their approvals
// (approvals.log) there, holding the folder's lock while they prepare and submit; and their reviews compare a
// transfer's recipient with that wallet's accounts, contacts and recipients (LOOKALIKE_RECIPIENT), as the app's do.
import { createHash } from 'node:crypto';
import { WalletError } from '../koinos/errors.ts';
import type { Transaction } from '../koinos/types.ts';
import type { TransactionSigner } from '../wallet/signer.ts';
import type { Approval, ApprovalQueue } from '../wallet/approvals/approvalQueue.ts';
import { MemoryApiKeyStore } from '../wallet/chain/apiKeyStore.ts';
import { createChainServices, type ChainServices } from '../wallet/chain/chainServices.ts';
import { FileChainSettings, MemoryChainSettings, type ChainSettingsStore } from '../wallet/chain/chainSettings.ts';
import { LOCAL_NETWORK_ID, MAINNET_NETWORK_ID, TESTNET_NETWORK_ID } from '../wallet/chain/networks.ts';
import { PendingTransactions } from '../wallet/chain/pendingTransactions.ts';
import { acquireDataFolderLock } from '../wallet/dataFolderLock.ts';
import { AddressBook, knownAddresses } from '../wallet/addressBook.ts';
import { readWalletFile } from '../wallet/vault/walletFile.ts';
import { LOCAL_DEVNET_URL } from './chainUsage.ts';
import { commandLineApprovals } from './commandLineApproval.ts';
import { UsageError, readSecret, stringOption, type OptionSpec, type ParsedArgs } from './io.ts';

/** The options every network command takes. */
export const NETWORK_OPTIONS: Record<string, OptionSpec> = {
  network: { type: 'string' },
  'api-key-file': { type: 'string' },
};

// The CLI's approver moved to commandLineApproval.ts (tx sign uses it offline); exported here as before.
export { commandLineApprover } from './commandLineApproval.ts';

/** A signer with no keys: the commands that must not sign (balance, --unsigned, tx submit) get this one. */
const NO_SIGNER: TransactionSigner = {
  async signTransaction(address: string, _tx: Transaction, _approval: Approval): Promise<Transaction> {
    throw new WalletError('INVALID_ARGUMENT', `no key was given to sign as ${address}: pass --wif-file FILE`);
  },
};

/** `--data-dir DIR`: the wallet data folder whose pending transactions the sending commands count and record. */
export const DATA_DIR_OPTION: Record<string, OptionSpec> = { 'data-dir': { type: 'string' } };

export interface ChainContext extends ChainServices {
  networkId: string;
  /** This command's settings, in memory: the tokens and collections it adds are forgotten when it ends. */
  settings: ChainSettingsStore;
  /** The command line's approval queue: every signature of this command is asked of it. */
  approvals: ApprovalQueue;
  /**
   * Writes the transactions this command submitted into the data folder's pending list and releases the folder, so
   * that the next command (or the wallet) counts their nonces while this one waits for inclusion. Nothing without
   * `--data-dir`; safe to call twice.
   */
  recordPending(): Promise<void>;
  /** Records as recordPending does, and stops the follower's polling so the process can exit. */
  close(): Promise<void>;
}

/** The data folder's pending transactions, held under its lock: a copy in memory that this command adds to. */
interface FolderPending {
  pending: PendingTransactions;
  /**
   * Writes to the folder's file what this command submitted and what its follower learned of the entries it found
   * there (included, or dropped), and releases the lock (once).
   */
  record(): Promise<void>;
}

/**
 * Takes the data folder `dir` for command `command` and loads its pending transactions into memory; the file is
 * written only by record(), with what this command added and the news of what it found.
 * @throws WalletError STORAGE_FAILED when the wallet or another command holds the folder.
 */
async function openFolderPending(dir: string, command: string): Promise<FolderPending> {
  const lock = await acquireDataFolderLock(dir, { holder: `cli ${command}` });
  try {
    const stored = await PendingTransactions.open(dir);
    const known = new Set(stored.all().map((e) => e.id));
    const pending = new PendingTransactions();
    for (const entry of stored.all()) pending.add(entry);
    let recorded: Promise<void> | undefined;
    const record = (): Promise<void> =>
      (recorded ??= (async () => {
        try {
          // The folder is this command's until the lock is released: its copy in memory is the file's content now.
          for (const id of known) if (!pending.get(id)) stored.remove(id);
          for (const entry of pending.all()) {
            const was = stored.get(entry.id);
            if (!was) stored.add(entry);
            // Each change is a write of the whole file: only what the follower changed is written back.
            else if (
              was.status !== entry.status ||
              was.blockHeight !== entry.blockHeight ||
              was.blockId !== entry.blockId
            )
              stored.update(entry.id, { status: entry.status, blockHeight: entry.blockHeight, blockId: entry.blockId });
          }
          await stored.flush();
        } finally {
          lock.release();
        }
      })());
    return { pending, record };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The addresses the data folder's wallet knows: its accounts (their addresses are in wallet.json in plain text; nothing
 * is unlocked, so any scrypt cost is taken as written), its contacts and its recipients.
 */
function folderKnownAddresses(dir: string) {
  return knownAddresses(
    new AddressBook(dir),
    async () => (await readWalletFile(dir, { minScryptN: 1 })).vault?.accounts ?? [],
  );
}

/**
 * The id a `--network URL` node takes: the one the data folder's wallet gave a custom network at that address, so that
 * its pending transactions count; else one derived from the address, the same in every command.
 */
async function networkIdForUrl(dir: string, jsonRpcUrl: string): Promise<string> {
  const saved = (await new FileChainSettings(dir).load()).customNetworks.find((n) => n.jsonRpcUrl === jsonRpcUrl);
  return saved?.id ?? `command-line-${createHash('sha256').update(jsonRpcUrl).digest('hex').slice(0, 16)}`;
}

/**
 * Builds the chain services for one command from its `--network`, `--api-key-file` and (for the commands that send)
 * `--data-dir` options. `command` names the command in the data folder's lock ("transfer").
 * @throws UsageError for a `--network` that is neither a known name nor an http(s) URL; WalletError STORAGE_FAILED
 *   when the data folder is held by the wallet or another command.
 */
export async function chainContext(
  args: ParsedArgs,
  signer: TransactionSigner = NO_SIGNER,
  allowedRisks: readonly string[] = [],
  command = 'chain',
): Promise<ChainContext> {
  const choice = stringOption(args, 'network') ?? LOCAL_NETWORK_ID;
  const url = /^https?:\/\//i.test(choice);
  if (!url && choice !== LOCAL_NETWORK_ID && choice !== TESTNET_NETWORK_ID && choice !== MAINNET_NETWORK_ID) {
    throw new UsageError('--network expects local, testnet, mainnet or an http(s) URL of a JSON-RPC node');
  }
  const keyFile = stringOption(args, 'api-key-file');
  if (keyFile === '-') throw new UsageError("--api-key-file needs a file (stdin is kept for the command's input)");
  const dataDir = stringOption(args, 'data-dir');
  const folder = dataDir === undefined ? undefined : await openFolderPending(dataDir, command);
  try {
    const settings = new MemoryChainSettings();
    const apiKeys = new MemoryApiKeyStore();
    const approvals = commandLineApprovals(allowedRisks, dataDir);
    const chain = createChainServices({
      settings,
      apiKeys,
      localDevnetUrl: async () => LOCAL_DEVNET_URL,
      approvals,
      signer,
      ...(folder ? { pending: folder.pending } : {}),
      ...(dataDir !== undefined ? { knownAddresses: folderKnownAddresses(dataDir) } : {}),
      followIntervalMs: 500,
    });
    let networkId = choice;
    if (url) {
      const added = await chain.networks.add({ name: 'Command line node', jsonRpcUrl: choice });
      networkId = added.id;
      if (dataDir !== undefined) {
        // The same node keeps the same id from one command to the next, so that the folder's pending entries match.
        networkId = await networkIdForUrl(dataDir, added.jsonRpcUrl);
        await settings.update((d) => {
          for (const n of d.customNetworks) if (n.id === added.id) n.id = networkId;
        });
        const key = await apiKeys.get(added.id);
        if (key) {
          await apiKeys.set(networkId, key.key, key.origins);
          await apiKeys.set(added.id, null);
        }
      }
    }
    if (keyFile !== undefined) await apiKeys.set(networkId, await readSecret(keyFile, 'an API key'));
    await chain.networks.select(networkId);
    // The entries an earlier command left as pending: their fate is read first, so that an included one's nonce is not
    // counted twice and a dropped one's is not counted at all.
    if (folder) await chain.follower.settle(networkId);
    const recordPending = (): Promise<void> => folder?.record() ?? Promise.resolve();
    return {
      ...chain,
      networkId,
      settings,
      approvals,
      recordPending,
      close: async () => {
        await chain.follower.stop();
        await recordPending();
      },
    };
  } catch (error) {
    await folder?.record();
    throw error;
  }
}
