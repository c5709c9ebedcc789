// The KCS-5 (NFT collection) standard as an ABI: the entry points and argument types every collection shares
// (koinos-contract-standards KCSs/kcs-5.md, koinos-proto koinos/standards/kcs5.proto), read with the same ABI reader
// as any contract's, so a collection that publishes no ABI of its own is still read and decoded by the standard.
import { parseAbi, type ContractAbi } from '../../koinos/contractAbi.ts';

const ADDRESS = { '(koinos.btype)': 'ADDRESS' };
const HEX = { '(koinos.btype)': 'HEX' };

/** The methods the wallet calls, with the entry points of the standard (first 4 bytes of sha256 of the name). */
const METHODS = {
  name: { argument: '', return: 'kcs5.str', entry_point: 0x82a3537f, read_only: true },
  symbol: { argument: '', return: 'kcs5.str', entry_point: 0xb76a7ca1, read_only: true },
  uri: { argument: '', return: 'kcs5.str', entry_point: 0x70e5d7b6, read_only: true },
  token_uri: { argument: 'kcs5.token', return: 'kcs5.str', entry_point: 0x40456c8e, read_only: true },
  balance_of: { argument: 'kcs5.balance_of_args', return: 'kcs5.uint64', entry_point: 0x5c721497, read_only: true },
  owner_of: { argument: 'kcs5.token', return: 'kcs5.address', entry_point: 0xed61c847, read_only: true },
  metadata_of: { argument: 'kcs5.token', return: 'kcs5.str', entry_point: 0x176c8f7f, read_only: true },
  get_tokens_by_owner: {
    argument: 'kcs5.get_tokens_by_owner_args',
    return: 'kcs5.token_ids',
    entry_point: 0xfc13eb75,
    read_only: true,
  },
  // Who may transfer one NFT besides its owner (the Allowances list).
  get_approved: { argument: 'kcs5.token', return: 'kcs5.address', entry_point: 0x4c731020, read_only: true },
  // The grants of every NFT an owner gave (the Allowances list reads them, and asks each whether it still stands).
  get_operator_approvals: {
    argument: 'kcs5.get_operators_args',
    return: 'kcs5.operators',
    entry_point: 0xdb1bf60e,
    read_only: true,
  },
  is_approved_for_all: {
    argument: 'kcs5.is_approved_for_all_args',
    return: 'kcs5.bool',
    entry_point: 0xe7ab8ce5,
    read_only: true,
  },
  transfer: { argument: 'kcs5.transfer_args', return: '', entry_point: 0x27f576ca, read_only: false },
  // The two grants a review must name (riskFlags.ts NFT_ALLOWANCE): one token, or every token of the owner.
  approve: { argument: 'kcs5.approve_args', return: '', entry_point: 0x74e21680, read_only: false },
  set_approval_for_all: {
    argument: 'kcs5.set_approval_for_all_args',
    return: '',
    entry_point: 0x20442216,
    read_only: false,
  },
} as const;

const TYPES = {
  nested: {
    kcs5: {
      nested: {
        str: { fields: { value: { type: 'string', id: 1 } } },
        uint64: { fields: { value: { type: 'uint64', id: 1, options: { jstype: 'JS_STRING' } } } },
        address: { fields: { value: { type: 'bytes', id: 1, options: ADDRESS } } },
        token: { fields: { token_id: { type: 'bytes', id: 1, options: HEX } } },
        balance_of_args: { fields: { owner: { type: 'bytes', id: 1, options: ADDRESS } } },
        get_tokens_by_owner_args: {
          fields: {
            owner: { type: 'bytes', id: 1, options: ADDRESS },
            start: { type: 'bytes', id: 2, options: HEX },
            limit: { type: 'int32', id: 3 },
            descending: { type: 'bool', id: 4 },
          },
        },
        token_ids: { fields: { token_ids: { rule: 'repeated', type: 'bytes', id: 1, options: HEX } } },
        bool: { fields: { value: { type: 'bool', id: 1 } } },
        get_operators_args: {
          fields: {
            owner: { type: 'bytes', id: 1, options: ADDRESS },
            start: { type: 'bytes', id: 2, options: ADDRESS },
            limit: { type: 'int32', id: 3 },
            descending: { type: 'bool', id: 4 },
          },
        },
        operators: {
          fields: {
            owner: { type: 'bytes', id: 1, options: ADDRESS },
            operators: { rule: 'repeated', type: 'bytes', id: 2, options: ADDRESS },
          },
        },
        is_approved_for_all_args: {
          fields: {
            owner: { type: 'bytes', id: 1, options: ADDRESS },
            operator: { type: 'bytes', id: 2, options: ADDRESS },
          },
        },
        transfer_args: {
          fields: {
            from: { type: 'bytes', id: 1, options: ADDRESS },
            to: { type: 'bytes', id: 2, options: ADDRESS },
            token_id: { type: 'bytes', id: 3, options: HEX },
            memo: { type: 'string', id: 4 },
          },
        },
        // `approve` is optional (proto3): an explicit false takes the grant back, an absent one grants.
        approve_args: {
          oneofs: { _approve: { oneof: ['approve'] } },
          fields: {
            owner: { type: 'bytes', id: 1, options: ADDRESS },
            operator: { type: 'bytes', id: 2, options: ADDRESS },
            token_id: { type: 'bytes', id: 3, options: HEX },
            memo: { type: 'string', id: 4 },
            approve: { type: 'bool', id: 5, options: { proto3_optional: true } },
          },
        },
        set_approval_for_all_args: {
          fields: {
            owner: { type: 'bytes', id: 1, options: ADDRESS },
            operator: { type: 'bytes', id: 2, options: ADDRESS },
            approved: { type: 'bool', id: 3 },
            memo: { type: 'string', id: 4 },
          },
        },
        burn_event: {
          fields: {
            from: { type: 'bytes', id: 1, options: ADDRESS },
            token_id: { type: 'bytes', id: 2, options: HEX },
            memo: { type: 'string', id: 3 },
          },
        },
        mint_event: {
          fields: {
            to: { type: 'bytes', id: 1, options: ADDRESS },
            token_id: { type: 'bytes', id: 2, options: HEX },
            memo: { type: 'string', id: 3 },
          },
        },
      },
    },
  },
};

/** A KCS-5 collection's event about NFTs (koinos-proto standards/kcs5.proto). */
const NFT_EVENT = /^collections\.(transfer|mint|burn|token_approval|operator_approval)_event$/;

/** The standard's methods the wallet uses, by name. */
export type Kcs5Method = keyof typeof METHODS;

/**
 * The KCS-5 standard as a parsed ABI: what reads are encoded and decoded with, and what a transfer's review is
 * decoded with when the collection publishes no ABI of its own.
 * @example
 * const m = KCS5_ABI.method('owner_of');
 * KCS5_ABI.encodeArguments(m, { token_id: '0x01' });
 */
export const KCS5_ABI: ContractAbi = parseAbi(
  JSON.stringify({
    methods: METHODS,
    koilib_types: TYPES,
    // The events are the arguments of the same names, field for field (kcs5.proto), but the burn's.
    events: {
      'collections.transfer_event': { type: 'kcs5.transfer_args' },
      'collections.mint_event': { type: 'kcs5.mint_event' },
      'collections.burn_event': { type: 'kcs5.burn_event' },
      'collections.token_approval_event': { type: 'kcs5.approve_args' },
      'collections.operator_approval_event': { type: 'kcs5.set_approval_for_all_args' },
    },
  }),
);

/** What a KCS-5 event says (its fields by name as the standard has them; absent when the event has none). */
export interface NftEventData {
  from?: string;
  to?: string;
  owner?: string;
  operator?: string;
  token_id?: string;
  memo?: string;
  approve?: boolean;
  approved?: boolean;
}

/** A collection's event about NFTs, as decodeNftEvent reads it. */
export interface NftEvent {
  kind: 'transfer' | 'mint' | 'burn' | 'token_approval' | 'operator_approval';
  data?: NftEventData;
}

/**
 * A collection's event about NFTs (a transfer, mint or burn of one; one or every NFT granted to an operator or taken
 * back) decoded with the standard's types: its kind and data; `data` undefined when the bytes are not that event's;
 * undefined for any other event.
 * @example
 * decodeNftEvent({ name: 'collections.transfer_event', data }); // { kind: 'transfer', data: { from, to, token_id } }
 */
export function decodeNftEvent(event: { name: string; data: Uint8Array }): NftEvent | undefined {
  const kind = NFT_EVENT.exec(event.name)?.[1] as NftEvent['kind'] | undefined;
  if (!kind) return undefined;
  const data = KCS5_ABI.decodeEvent(event.name, event.data) as NftEventData | undefined;
  return data ? { kind, data } : { kind };
}

/**
 * The sentence of an NFT collection's event (KCS-5: an NFT transferred, minted or burned, one NFT or every NFT granted to
 * an operator or taken back), addresses in full, for a review's effects and a receipt; undefined for any other event.
 * @example
 * describeNftEvent(event, '1Col…'); // 'Transfer NFT 0x01 of 1Col… from 1Abc… to 1Def…'
 */
export function describeNftEvent(event: { name: string; data: Uint8Array }, contract: string): string | undefined {
  const decoded = decodeNftEvent(event);
  if (!decoded) return undefined;
  const { kind, data } = decoded;
  if (!data) return undefined; // named like an NFT event, but its data is not one: shown as an event
  const who = (address: string | undefined) => address || '(nobody)';
  const nft = `NFT ${data.token_id ?? '(none)'} of ${contract}`;
  switch (kind) {
    case 'transfer':
      return `Transfer ${nft} from ${who(data.from)} to ${who(data.to)}`;
    case 'mint':
      return `Mint ${nft} to ${who(data.to)}`;
    case 'burn':
      return `Burn ${nft} from ${who(data.from)}`;
    case 'token_approval':
      // An approval to nobody, or to the owner itself, takes back whatever approval the NFT had (the wallet's
      // Allowances send the latter).
      if (!data.operator || data.operator === data.owner)
        return `Take back every approval of ${nft} held by ${who(data.owner)}`;
      return data.approve === false
        ? `Take back from ${who(data.operator)} the transfer of ${nft}`
        : `Allow ${who(data.operator)} to transfer ${nft} held by ${who(data.owner)}`;
    default:
      return data.approved === true
        ? `Allow ${who(data.operator)} to transfer every NFT of ${contract} held by ${who(data.owner)}, now and later`
        : `Take back from ${who(data.operator)} the transfer of every NFT of ${contract} held by ${who(data.owner)}`;
  }
}
