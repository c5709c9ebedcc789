// The proof-of-burn contract as a built-in system contract (koinos-contracts-as contracts/pob/assembly/Pob.ts): burn
// (KOIN in, VHP out, one for one), producer public keys, consensus parameters and metadata. The devnet produces its
// blocks itself, so process_block_signature (the chain's block check) is not run here.
import { equalBytes, toBase58 } from '../../koinos/bytes.ts';
import { decode, encode } from '../../koinos/codec.ts';
import { TOKEN_METHODS } from '../../koinos/koin.ts';
import { ERROR_CODE, reversion } from '../state/chainError.ts';
import { COMPUTE } from '../state/resources.ts';
import { objectSpace, type Space, type StateView } from '../state/state.ts';
import {
  decodeArguments,
  check,
  emit,
  getObject,
  putObject,
  removeObject,
  useCompute,
  type CallContext,
  type Contract,
} from './context.ts';
import { methodOf, systemAbi, systemMethod, type SystemMethod } from './systemAbi.ts';

const PKG = 'koinos.contracts.pob';
const EMPTY = new Uint8Array(0);

/** Pob.ts's entry points (sha256 of each name, as its ABI numbers them). */
const POB_METHODS = {
  burn: systemMethod(PKG, 'burn', false, 'Burns KOIN to receive VHP'),
  register_public_key: systemMethod(
    PKG,
    'register_public_key',
    false,
    'Registers a block production public key to an address',
  ),
  get_public_key: systemMethod(PKG, 'get_public_key', true, 'Gets the public key registered to a producer address'),
  get_metadata: systemMethod(PKG, 'get_metadata', true, 'Returns the PoB metadata'),
  get_consensus_parameters: systemMethod(PKG, 'get_consensus_parameters', true, 'Returns the PoB consensus parameters'),
  update_consensus_parameters: systemMethod(
    PKG,
    'update_consensus_parameters',
    false,
    'Updates the PoB consensus parameters',
  ),
} as const satisfies Record<string, SystemMethod>;

/** Pob.ts Constants: the parameters a chain starts with until update_consensus_parameters stores others. */
const DEFAULT_CONSENSUS_PARAMETERS = {
  target_annual_inflation_rate: 19_802, // 2%, compounded per block
  target_burn_percent: 501_000, // 50.1%
  target_block_interval: 3_000,
  quantum_length: 10,
} as const;

/** Pob.ts INITIAL_DIFFICULTY_BITS of a release build: the first difficulty is 2^57, as a 16-byte big-endian u128. */
const INITIAL_DIFFICULTY = Uint8Array.from({ length: 16 }, (_, i) =>
  Number(((1n << 57n) >> BigInt(8 * (15 - i))) & 0xffn),
);

interface ConsensusParameters {
  target_annual_inflation_rate: number;
  target_burn_percent: number;
  target_block_interval: number;
  quantum_length: number;
}

/** Where pob finds the token contracts it calls: System.getContractAddress('koin' | 'vhp') and the contract there. */
export type SystemContractLookup = (view: StateView, name: 'koin' | 'vhp') => Contract | undefined;

/** The pob contract at one address. */
export class PobContract implements Contract {
  readonly address: Uint8Array;
  /** Pob.ts State.Space: 0 producer → public_key_record, 1 metadata (key empty) and consensus parameters (key 0x00). */
  private readonly registration: Space;
  private readonly metadata: Space;

  constructor(
    address: Uint8Array,
    private readonly lookup: SystemContractLookup,
  ) {
    this.address = address;
    this.registration = objectSpace(address, 0);
    this.metadata = objectSpace(address, 1);
  }

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    const method = methodOf(POB_METHODS, entryPoint, ctx.readOnly, 'pob');
    switch (method.name) {
      case 'burn':
        return this.burn(ctx, decodeArguments(method.argument, args));
      case 'register_public_key':
        return this.registerPublicKey(ctx, decodeArguments(method.argument, args));
      case 'get_public_key': {
        const { producer } = decodeArguments(method.argument, args);
        const bytes = getObject(ctx, this.registration, producer);
        check(bytes !== undefined, 'given address has no public key record');
        return encode(method.result, { value: decode(`${PKG}.public_key_record`, bytes).public_key });
      }
      case 'get_metadata':
        return encode(method.result, { value: this.fetchMetadata(ctx) });
      case 'get_consensus_parameters':
        return encode(method.result, { value: this.fetchConsensusParameters(ctx) });
      case 'update_consensus_parameters': {
        const { value } = decodeArguments(method.argument, args);
        useCompute(ctx, COMPUTE.check_system_authority);
        // System.checkSystemAuthority(): on the devnet, a signature of the genesis key.
        check(ctx.authorize(ctx.genesisAddress), 'caller must have system authority to update consensus parameters');
        putObject(ctx, this.metadata, Uint8Array.of(0), encode(`${PKG}.consensus_parameters`, value ?? {}));
        return EMPTY;
      }
      default:
        throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the pob contract`);
    }
  }

  /**
   * burn: KOIN.burn(burn_address, amount) then VHP.mint(vhp_address, amount), the two events those contracts emit and
   * none of its own. Pob is a system contract, so both calls come from kernel mode (VHP mints only for such a caller);
   * KOIN still asks for the burn_address's authority as it asks any contract caller: an allowance to pob (what
   * Kondor approves in the same transaction), as KCS-4 KOIN refuses a contract caller a user's signature. A callee's
   * failure ends the transaction with the callee's message, as the chain's `call` passes it on.
   */
  private burn(
    ctx: CallContext,
    args: { token_amount: bigint; burn_address: Uint8Array; vhp_address: Uint8Array },
  ): Uint8Array {
    const koin = this.lookup(ctx.view, 'koin');
    const vhp = this.lookup(ctx.view, 'vhp');
    check(koin !== undefined && vhp !== undefined, 'the devnet runs pob only with its own KOIN and VHP contracts');
    const nested: CallContext = {
      ...ctx,
      caller: this.address,
      kernelCaller: true,
      // koinos-sdk-as System.checkAccountAuthority seen from a contract caller: the caller is its own account; a
      // transaction's signatures do not authorize a contract to move a user's tokens.
      authorize: (account) => equalBytes(account, this.address),
    };
    useCompute(ctx, COMPUTE.call);
    koin.call(
      nested,
      TOKEN_METHODS.burn.entryPoint,
      encode(TOKEN_METHODS.burn.argsType, { from: args.burn_address, value: args.token_amount }),
    );
    useCompute(ctx, COMPUTE.call);
    vhp.call(
      nested,
      TOKEN_METHODS.mint.entryPoint,
      encode(TOKEN_METHODS.mint.argsType, { to: args.vhp_address, value: args.token_amount }),
    );
    return EMPTY;
  }

  /** register_public_key: the producer's authority, then the key (or its removal when empty) and an event. */
  private registerPublicKey(ctx: CallContext, args: { producer: Uint8Array; public_key: Uint8Array }): Uint8Array {
    check(args.producer.length > 0, 'producer cannot be null');
    useCompute(ctx, COMPUTE.check_authority);
    check(
      ctx.authorize(args.producer),
      `account '${toBase58(args.producer)}' authorization failed`,
      ERROR_CODE.authorization_failure,
    );
    // The contract removes the record when public_key is null; protobuf has no null bytes, so an empty key does.
    if (args.public_key.length === 0) removeObject(ctx, this.registration, args.producer);
    else {
      const record = encode(`${PKG}.public_key_record`, {
        public_key: args.public_key,
        set_block_height: ctx.blockHeight,
      });
      putObject(ctx, this.registration, args.producer, record);
    }
    const event = encode(`${PKG}.register_public_key_event`, { address: args.producer, public_key: args.public_key });
    emit(ctx, this.address, `${PKG}.register_public_key_event`, event, [args.producer]);
    return EMPTY;
  }

  /** Pob.ts fetch_metadata: the stored object, else the first one (seed = chain id, initial difficulty, head time). */
  private fetchMetadata(ctx: CallContext): object {
    const bytes = getObject(ctx, this.metadata, EMPTY);
    if (bytes) return decode(`${PKG}.metadata`, bytes);
    return { seed: ctx.chain?.chainId ?? EMPTY, difficulty: INITIAL_DIFFICULTY, last_block_time: ctx.headBlockTime };
  }

  private fetchConsensusParameters(ctx: CallContext): ConsensusParameters {
    const bytes = getObject(ctx, this.metadata, Uint8Array.of(0));
    return bytes ? decode(`${PKG}.consensus_parameters`, bytes) : { ...DEFAULT_CONSENSUS_PARAMETERS };
  }
}

let abiText: string | undefined;

/** The pob contract's ABI as JSON text (what the contract meta store answers). */
export function pobAbi(): string {
  abiText ??= systemAbi(Object.values(POB_METHODS), [PKG], {
    [`${PKG}.register_public_key_event`]: `${PKG}.register_public_key_event`,
  });
  return abiText;
}
