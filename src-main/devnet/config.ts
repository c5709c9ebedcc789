// The devnet's settings: a DevnetConfig checked (each bad value a WalletError that names it) and filled with its
// defaults, and the genesis parameters of a shape. Read when a node opens; a reset keeps them.
import { UINT64_MAX } from '../koinos/amounts.ts';
import { WalletError } from '../koinos/errors.ts';
import { GENESIS_KEY_INDEX } from './chain/devKeys.ts';
import {
  DEFAULT_ACCOUNTS,
  DEFAULT_GENESIS_SEED,
  DEFAULT_INITIAL_BALANCE,
  type GenesisParams,
} from './chain/genesis.ts';
import type { ChainShape } from './chain/shapes.ts';
import { loadCommunityContract, type CommunityContract } from './contracts/communityContracts.ts';
import type { DevnetConfig } from './types.ts';

/** A DevnetConfig checked and with its defaults. */
export interface Settings {
  genesisSeed: string;
  accounts: number;
  initialBalance: bigint;
  blockTimeMs: number;
  manual: boolean;
  irreversibleDepth: number;
  now: () => number;
  pendingTransactionLimit: number;
  log: (message: string) => void;
}

/**
 * `value`, an integer from `min` to `max`, or `fallback` when absent.
 * @throws WalletError INVALID_ARGUMENT naming `name` otherwise.
 */
export function checkInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${name}: expected an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * The number of development accounts: 0 to GENESIS_KEY_INDEX (1000), because account N would be the genesis key.
 * @throws WalletError INVALID_ARGUMENT otherwise.
 */
export function checkAccounts(value: number | undefined): number {
  if (value === undefined) return DEFAULT_ACCOUNTS;
  if (!Number.isInteger(value) || value < 0 || value > GENESIS_KEY_INDEX) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `accounts: expected an integer from 0 to ${GENESIS_KEY_INDEX}, got ${String(value)}`,
      {
        metaMessages: [
          `The devnet funds at most ${GENESIS_KEY_INDEX} development accounts: index ${GENESIS_KEY_INDEX} is the genesis key.`,
        ],
      },
    );
  }
  return value;
}

/**
 * `value`, base units from 0 to 2^64-1, or `fallback` when absent.
 * @throws WalletError INVALID_ARGUMENT naming `name` otherwise.
 */
export function checkBalance(name: string, value: bigint | undefined, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  if (typeof value !== 'bigint' || value < 0n || value > UINT64_MAX) {
    throw new WalletError(
      'INVALID_ARGUMENT',
      `${name}: expected base units as a bigint from 0 to 2^64-1, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * The settings of a config: every value checked, every absent one at its default.
 * @throws WalletError INVALID_ARGUMENT for a bad value.
 */
export function settingsOf(config: DevnetConfig): Settings {
  const initialBalance = checkBalance('initialBalance', config.initialBalance, DEFAULT_INITIAL_BALANCE);
  const genesisSeed = config.genesisSeed ?? DEFAULT_GENESIS_SEED;
  if (typeof genesisSeed !== 'string') throw new WalletError('INVALID_ARGUMENT', 'genesisSeed: expected a string');
  return {
    genesisSeed,
    accounts: checkAccounts(config.accounts),
    initialBalance,
    blockTimeMs: checkInteger('blockTimeMs', config.blockTimeMs, 3000, 0, 86_400_000),
    manual: config.manual ?? false,
    irreversibleDepth: checkInteger('irreversibleDepth', config.irreversibleDepth, 60, 0, 1_000_000),
    now: config.now ?? Date.now,
    pendingTransactionLimit: checkInteger(
      'pendingTransactionLimit',
      config.pendingTransactionLimit,
      10,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    log: config.log ?? ((message) => console.warn(`[devnet] ${message}`)),
  };
}

/** Genesis parameters with a shape and the bytecode of the community contracts it deploys. */
export function genesisParams(base: Omit<GenesisParams, 'shape' | 'community'>, shape: ChainShape): GenesisParams {
  const community = new Map<string, CommunityContract>();
  for (const name of shape.community.keys()) community.set(name, loadCommunityContract(name));
  return { ...base, shape, community };
}
