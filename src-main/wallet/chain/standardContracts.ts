// What KCS-4 tokens (tokens.ts) and KCS-5 collections (nfts.ts) share: a contract address checked before the node is
// asked, the reads of a standard's entry points judged alike (the node unreachable, no contract there, what it answered
// and refused), and each network's list of the contracts the user added, kept in the chain settings.
import { BTYPE, bytesToJson } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { addressFromString } from '../../koinos/address.ts';
import type { ChainSettingsData, ChainSettingsStore } from './chainSettings.ts';
import { chainCodeOf } from './nodeError.ts';
import type { KoinosNode } from './koinosNode.ts';
import type { NetworkService } from './networks.ts';

/** Errors on the way to the node: they say nothing about the contract, so they are passed on as they are. */
const TRANSPORT_CODES: readonly string[] = [
  'NODE_UNREACHABLE',
  'NODE_TIMEOUT',
  'NODE_UNAUTHORIZED',
  'NODE_MALFORMED_ANSWER',
  'NODE_ERROR',
];
/** koinos-proto `koinos/chain/error.proto`: `invalid_contract = 102` (a REST answer's "contract does not exist" reads as it, nodeError.ts). */
const INVALID_CONTRACT = 102;

/** True for an error on the way to the node or of the node itself, which says nothing about the contract read. */
export function isTransportError(error: unknown): boolean {
  return !(error instanceof WalletError) || TRANSPORT_CODES.includes(error.code);
}

/** True for the node's answer that no contract is uploaded at the address read. */
export function isMissingContract(error: unknown): boolean {
  if (!(error instanceof WalletError) || isTransportError(error)) return false;
  return chainCodeOf(error) === INVALID_CONTRACT;
}

/** The node's own words in a refused read ("unknown entry point 0xee80fd2f"), for "found" in a message. */
export function nodeSaid(error: unknown): string {
  if (!(error instanceof WalletError)) return describe(error);
  // details: `chain.read_contract at URL: -32603 unknown entry point 0x... {"code":1}` (nodeError.ts)
  const said = /:\s-?\d+\s(.+?)(?:\s\{.*\})?$/.exec(error.details ?? '')?.[1];
  return said ?? error.shortMessage;
}

/**
 * A token contract's address as typed or pasted, checked (checksum) before the node is asked anything.
 * @throws WalletError INVALID_ADDRESS saying what is wrong with it.
 */
export function contractAddress(text: string): { bytes: Uint8Array; address: string } {
  let bytes: Uint8Array;
  try {
    bytes = addressFromString(typeof text === 'string' ? text.trim() : text);
  } catch (cause) {
    const reason = cause instanceof WalletError ? cause.shortMessage : describe(cause);
    throw new WalletError(
      'INVALID_ADDRESS',
      `The token's contract address is not a valid Koinos address (${reason}). Check it, or copy it again.`,
      { cause },
    );
  }
  return { bytes, address: bytesToJson(bytes, BTYPE.ADDRESS) };
}

/**
 * Judges the settled reads of a standard's entry points at `address` before their answers are: the first error on the
 * way to the node is thrown as it is, and a node that says no contract is uploaded there becomes NOT_FOUND.
 * @throws WalletError NOT_FOUND; transport errors as they are.
 */
export function checkContractReached(address: string, reads: readonly PromiseSettledResult<unknown>[]): void {
  for (const read of reads) if (read.status === 'rejected' && isTransportError(read.reason)) throw read.reason;
  const missing = reads.find((r) => r.status === 'rejected' && isMissingContract(r.reason));
  if (missing?.status === 'rejected') {
    throw new WalletError(
      'NOT_FOUND',
      `There is no contract at ${address} on this network. Check the address and the selected network; a restart of a test network removes the contracts uploaded before it.`,
      { details: nodeSaid(missing.reason), cause: missing.reason },
    );
  }
}

/**
 * What a contract that is not of the standard did, for "found a contract that ...": the entry points it answered (with
 * the answers), those it refused (with the node's words) and what else is wrong (`flaws`, e.g. "has an empty symbol").
 * @example
 * whatItDid(['name "X"'], ['symbol (unknown entry point)'], []); // 'answers name "X" and refuses symbol (unknown entry point)'
 */
export function whatItDid(answered: readonly string[], refused: readonly string[], flaws: readonly string[]): string {
  return [
    answered.length > 0 ? `answers ${answered.join(', ')}` : '',
    refused.length > 0 ? `refuses ${refused.join(', ')}` : '',
    ...flaws,
  ]
    .filter((part) => part !== '')
    .join(' and ');
}

export interface AddedContractsOptions<T> {
  networks: NetworkService;
  settings: ChainSettingsStore;
  /** The network id -> list table of the settings that holds this kind of contract. */
  lists: (data: ChainSettingsData) => Record<string, T[]>;
  /** Reads the contract's own description from the chain, checking it against the standard (throws when it is not). */
  read: (node: KoinosNode, contract: Uint8Array) => Promise<T>;
}

/**
 * The contracts of one standard the user added on each network, in the order added.
 * @example
 * const collections = new AddedContracts({ networks, settings, lists: (d) => d.nftCollections, read: readCollectionInfo });
 * await collections.add('testnet', '1Nft...');
 */
export class AddedContracts<T extends { contract: string }> {
  private readonly options: AddedContractsOptions<T>;

  constructor(options: AddedContractsOptions<T>) {
    this.options = options;
  }

  /** The list kept for a network (no node needed). */
  async stored(networkId: string): Promise<T[]> {
    return this.options.lists(await this.options.settings.load())[networkId] ?? [];
  }

  /**
   * What the contract at `contract` says of itself now, on this network, checked against the standard, not remembered.
   * @throws WalletError INVALID_ADDRESS, NOT_FOUND, and what `read` throws for a contract that is not of the standard.
   */
  async inspect(networkId: string, contract: string): Promise<T> {
    const { bytes } = contractAddress(contract);
    const { node } = await this.options.networks.node(networkId);
    return this.options.read(node, bytes);
  }

  /**
   * Adds the contract once the chain answers as the standard says; one that `listed` (the network's list as its service
   * shows it; by default the stored one) holds already is answered as it is.
   * @throws WalletError INVALID_ADDRESS, NOT_FOUND, and what `read` throws for a contract that is not of the standard.
   */
  async add(
    networkId: string,
    contract: string,
    listed: (networkId: string) => Promise<T[]> = (id) => this.stored(id),
  ): Promise<T> {
    const { bytes, address } = contractAddress(contract);
    const existing = (await listed(networkId)).find((c) => c.contract === address);
    if (existing) return existing;
    const { node } = await this.options.networks.node(networkId);
    const info = await this.options.read(node, bytes);
    await this.options.settings.update((d) => {
      const lists = this.options.lists(d);
      lists[networkId] = [...(lists[networkId] ?? []).filter((c) => c.contract !== address), info];
    });
    return info;
  }

  /** Drops the contract (an address, checked) from the network's list. */
  async remove(networkId: string, address: string): Promise<void> {
    await this.options.settings.update((d) => {
      const lists = this.options.lists(d);
      lists[networkId] = (lists[networkId] ?? []).filter((c) => c.contract !== address);
    });
  }
}
