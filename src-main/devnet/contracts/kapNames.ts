// A stand-in for KAP (the Koinos Account Protocol name service, kap.domains) written for the devnet: it speaks KAP's
// interface (entry points and messages of lukemwillis/kap-contracts, see proto/koinos/contracts/kap/kap.proto) so
// that a wallet resolves `alice.koin` here exactly as on mainnet, but it is not KAP's code: names are free, any
// account may mint one for itself, and only the lookups a wallet needs are answered.
import { bytesToUtf8, concatBytes, toBase58, utf8ToBytes } from '../../koinos/bytes.ts';
import { decode, encode } from '../../koinos/codec.ts';
import { DESCRIPTOR } from '../../koinos/generated/descriptor.ts';
import { parseKapName } from '../../koinos/recipientName.ts';
import { reversion } from '../state/chainError.ts';
import { COMPUTE } from '../state/resources.ts';
import { objectSpace, type Space } from '../state/state.ts';
import {
  decodeArguments,
  check,
  emit,
  getObject,
  putObject,
  useCompute,
  type CallContext,
  type Contract,
} from './context.ts';

const KAP = 'koinos.contracts.kap.';

/** KAP's entry points (the first 4 bytes of sha256 of each name, as its ABI numbers them). */
const KAP_ENTRY_POINTS = {
  owner_of: 0xed61c847,
  mint: 0xdc6f17bb,
  get_name: 0xe5070a16,
  get_names: 0xcd5c6518,
  name: 0x82a3537f,
  symbol: 0xb76a7ca1,
} as const;

/** A minted name lasts a year, then a grace period of 30 days (the stand-in's choice; KAP's depends on the domain). */
const YEAR_MS = 365n * 86_400_000n;
const GRACE_MS = 30n * 86_400_000n;
/** get_names answers at most this many names per call. */
const MAX_NAMES_PER_CALL = 100n;

interface NameObject {
  domain: string;
  name: string;
  owner: Uint8Array;
  expiration: bigint;
  grace_period_end: bigint;
}

/** The KAP stand-in at one address. Spaces (its own zone): 0 full name → name_object, 1 owner ‖ full name → empty. */
export class KapNamesContract implements Contract {
  readonly address: Uint8Array;
  private readonly names: Space;
  private readonly byOwner: Space;

  constructor(address: Uint8Array) {
    this.address = address;
    this.names = objectSpace(address, 0, false);
    this.byOwner = objectSpace(address, 1, false);
  }

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    switch (entryPoint) {
      case KAP_ENTRY_POINTS.name:
        return encode(`${KAP}string_object`, { value: 'Koinos Account Protocol (devnet stand-in)' });
      case KAP_ENTRY_POINTS.symbol:
        return encode(`${KAP}string_object`, { value: 'KAP' });
      case KAP_ENTRY_POINTS.owner_of: {
        const { token_id } = decodeArguments(`${KAP}owner_of_arguments`, args);
        const found = this.live(ctx, bytesToUtf8(token_id));
        return encode(`${KAP}bytes_address_object`, found ? { value: found.owner } : {});
      }
      case KAP_ENTRY_POINTS.get_name: {
        const { name } = decodeArguments(`${KAP}get_name_arguments`, args);
        const found = this.live(ctx, name);
        return encode(`${KAP}name_object`, found ?? {});
      }
      case KAP_ENTRY_POINTS.get_names:
        return this.getNames(ctx, decodeArguments(`${KAP}get_names_arguments`, args));
      case KAP_ENTRY_POINTS.mint:
        return this.mint(ctx, decodeArguments(`${KAP}mint_arguments`, args));
      default:
        throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the KAP stand-in`);
    }
  }

  /**
   * The name object of a name that exists and has not expired or is in its grace period, when its holder may still
   * renew it (KAP's getName: expiration 0, or expiration or grace_period_end after the head block); after that it
   * answers as absent, and anyone may mint it.
   */
  private live(ctx: CallContext, fullName: string): NameObject | undefined {
    const bytes = getObject(ctx, this.names, utf8ToBytes(fullName));
    if (!bytes) return undefined;
    const found = decode(`${KAP}name_object`, bytes);
    const now = ctx.headBlockTime;
    return found.expiration === 0n || found.expiration > now || found.grace_period_end > now ? found : undefined;
  }

  private getNames(
    ctx: CallContext,
    args: { owner: Uint8Array; name_offset?: string; limit?: bigint; descending?: boolean },
  ): Uint8Array {
    const limit =
      args.limit === undefined || args.limit === 0n || args.limit > MAX_NAMES_PER_CALL
        ? MAX_NAMES_PER_CALL
        : args.limit;
    let keys = ctx.view.entries(this.byOwner, args.owner).map((e) => bytesToUtf8(e.key.subarray(args.owner.length)));
    if (args.descending) keys = keys.reverse();
    const offset = args.name_offset ?? '';
    if (offset !== '') keys = keys.filter((k) => (args.descending ? k < offset : k > offset));
    const names: NameObject[] = [];
    for (const key of keys) {
      if (BigInt(names.length) >= limit) break;
      useCompute(ctx, COMPUTE.get_next_object); // walking the owner index, as KAP's contract does
      const found = this.live(ctx, key);
      if (found) names.push(found);
    }
    return encode(`${KAP}get_names_result`, { names });
  }

  /**
   * mint: a free name in any domain for `owner`, who must sign (the stand-in has no payment); refused when the name is
   * taken and not expired. Emits KCS-2's mint_event as KAP does.
   */
  private mint(ctx: CallContext, args: { name: string; duration_increments?: number; owner: Uint8Array }): Uint8Array {
    const parsed = parseKapName(args.name ?? '');
    check(!('reason' in parsed), `invalid name: ${'reason' in parsed ? parsed.reason : ''}`);
    check(args.owner?.length === 25, 'owner: expected an address');
    check(ctx.authorize(args.owner), `the owner ${toBase58(args.owner)} must sign the mint`);
    check(this.live(ctx, parsed.name) === undefined, `name ${parsed.name} is already taken`);
    const increments = BigInt(Math.max(1, args.duration_increments ?? 1));
    const expiration = ctx.headBlockTime + increments * YEAR_MS;
    const object: NameObject = {
      domain: parsed.domain,
      name: parsed.label,
      owner: args.owner,
      expiration,
      grace_period_end: expiration + GRACE_MS,
    };
    const key = utf8ToBytes(parsed.name);
    putObject(ctx, this.names, key, encode(`${KAP}name_object`, object));
    putObject(ctx, this.byOwner, concatBytes(args.owner, key), new Uint8Array(0));
    emit(ctx, this.address, 'collections.mint_event', encode(`${KAP}mint_event`, { to: args.owner, token_id: key }), [
      args.owner,
    ]);
    return encode(`${KAP}empty_object`, {});
  }
}

let abiText: string | undefined;

/** The stand-in's ABI as JSON text, in the shape koilib's Contract reads (the contract meta store answers it). */
export function kapNamesAbi(): string {
  const types = (DESCRIPTOR.nested as any).koinos.nested.contracts.nested.kap;
  const method = (
    name: keyof typeof KAP_ENTRY_POINTS,
    argument: string,
    result: string,
    readOnly: boolean,
    description: string,
  ) => ({
    argument: `${KAP}${argument}`,
    return: `${KAP}${result}`,
    entry_point: KAP_ENTRY_POINTS[name],
    read_only: readOnly,
    description,
  });
  abiText ??= JSON.stringify({
    methods: {
      owner_of: method('owner_of', 'owner_of_arguments', 'bytes_address_object', true, 'Gets the owner of a name'),
      get_name: method('get_name', 'get_name_arguments', 'name_object', true, 'Get name object'),
      get_names: method(
        'get_names',
        'get_names_arguments',
        'get_names_result',
        true,
        'Get names that belong to an address',
      ),
      mint: method(
        'mint',
        'mint_arguments',
        'empty_object',
        false,
        'Mint a name (devnet stand-in: free, signed by the owner)',
      ),
    },
    events: { 'collections.mint_event': { argument: `${KAP}mint_event` } },
    koilib_types: { nested: { koinos: { nested: { contracts: { nested: { kap: types } } } } } },
  });
  return abiText;
}
