// A KCS-4 token run natively: entry points, checks, messages, allowances and events of the current KOIN contract
// (koinos-contracts-as contracts/koin/assembly/Koin.ts), with the way a balance is kept left to each token (KOIN
// with mana, VHP with delayed effective balances, test tokens with a plain balance).
import { UINT64_MAX } from '../../koinos/amounts.ts';
import { concatBytes, equalBytes, toBase58 } from '../../koinos/bytes.ts';
import { decode, encode } from '../../koinos/codec.ts';
import { koinMethodByEntryPoint, type SystemTokenMethod } from '../../koinos/koin.ts';
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

const EMPTY = new Uint8Array(0);
const BALANCE_OBJECT = 'koinos.contracts.token.balance_object';

/** Event names of the current KOIN (and VHP): the call's arguments are the data. */
export const TOKEN_EVENTS = {
  transfer: 'token.transfer_event',
  mint: 'token.mint_event',
  burn: 'token.burn_event',
  approve: 'token.approve_event',
} as const;

export interface TokenInfo {
  name: string;
  symbol: string;
  decimals: number;
}

/** The token's object spaces in its own zone (Koin.ts: supply 0, balances 1, allowances 2). */
export interface TokenSpaces {
  supply: Space;
  balances: Space;
  allowances: Space;
}

function tokenSpaces(address: Uint8Array): TokenSpaces {
  return { supply: objectSpace(address, 0), balances: objectSpace(address, 1), allowances: objectSpace(address, 2) };
}

/**
 * A KCS-4 token. Subclasses say how an account's record holds its balance (`R`), what happens to it on a debit and
 * a credit, who may mint, and any entry points of their own.
 */
export abstract class TokenContract<R> implements Contract {
  readonly address: Uint8Array;
  readonly spaces: TokenSpaces;

  /**
   * `zone` is where balances are kept: the address by default; KOIN and VHP keep one fixed zone wherever a network
   * shape places them, as the release KCS-4 KOIN and VHP hard-code theirs (koinos-contracts-as Koin.ts, Vhp.ts).
   */
  constructor(address: Uint8Array, zone: Uint8Array = address) {
    this.address = address;
    this.spaces = tokenSpaces(zone);
  }

  abstract info(view: StateView): TokenInfo;
  /** The account's record (an empty one when it has none). */
  abstract decodeRecord(bytes: Uint8Array | undefined): R;
  abstract encodeRecord(record: R): Uint8Array;
  abstract balanceOf(record: R): bigint;
  /** Takes `value` (the balance was checked); KOIN also checks and takes mana. */
  protected abstract debit(ctx: CallContext, record: R, value: bigint, action: 'transfer' | 'burn'): void;
  protected abstract credit(ctx: CallContext, record: R, value: bigint): void;
  /** Whether this call may mint; the failure when not. */
  protected abstract mayMint(ctx: CallContext): boolean;
  /** Entry points beyond KCS-4; undefined when the entry point is not one. */
  protected extra(_ctx: CallContext, _method: SystemTokenMethod, _args: Uint8Array): Uint8Array | undefined {
    return undefined;
  }
  /** Entry points this token answers beyond KCS-4 (by name). */
  protected readonly extraMethods: readonly string[] = [];

  /** The record holding exactly `value` (devnet.set_balance), at block time `time` and height `height`. */
  protected abstract withBalance(record: R, value: bigint, time: bigint, height: bigint): R;

  /**
   * Sets an account's balance and adjusts the supply (devnet.set_balance: not a contract call, no event).
   * @throws RangeError when the supply would leave 0..2^64-1.
   */
  setBalance(view: StateView, owner: Uint8Array, value: bigint, time: bigint, height: bigint): void {
    const record = this.record(view, owner);
    const supply = this.supply(view) - this.balanceOf(record) + value;
    if (supply > UINT64_MAX) throw new RangeError(`the total supply would exceed 2^64-1 (${supply})`);
    view.put(this.spaces.balances, owner, this.encodeRecord(this.withBalance(record, value, time, height)));
    view.put(this.spaces.supply, EMPTY, this.encodeSupply(supply));
  }

  /** An account's record as stored (not metered: for node services and developer methods). */
  record(view: StateView, owner: Uint8Array): R {
    return this.decodeRecord(view.get(this.spaces.balances, owner));
  }

  supply(view: StateView): bigint {
    const bytes = view.get(this.spaces.supply, EMPTY);
    return bytes ? decode(BALANCE_OBJECT, bytes).value : 0n;
  }

  /** The supply object's bytes. */
  encodeSupply(value: bigint): Uint8Array {
    return encode(BALANCE_OBJECT, { value });
  }

  private load(ctx: CallContext, owner: Uint8Array): R {
    return this.decodeRecord(getObject(ctx, this.spaces.balances, owner));
  }

  private store(ctx: CallContext, owner: Uint8Array, record: R): void {
    putObject(ctx, this.spaces.balances, owner, this.encodeRecord(record));
  }

  private readSupply(ctx: CallContext): bigint {
    const bytes = getObject(ctx, this.spaces.supply, EMPTY);
    return bytes ? decode(BALANCE_OBJECT, bytes).value : 0n;
  }

  /**
   * Koin.ts _check_authority (koinos-contracts-as since PR #112, 2025): a contract caller may spend an allowance, and one
   * spent to zero is removed, not stored as a zero (get_allowances no longer lists it); otherwise the account must have
   * signed. As there, an absent allowance reads as 0, so a contract caller moving 0 needs no allowance.
   */
  private checkAuthority(ctx: CallContext, account: Uint8Array, amount: bigint): boolean {
    if (ctx.caller.length > 0) {
      const key = concatBytes(account, ctx.caller);
      const bytes = getObject(ctx, this.spaces.allowances, key);
      const allowance = bytes ? decode(BALANCE_OBJECT, bytes).value : 0n;
      if (allowance === amount) {
        removeObject(ctx, this.spaces.allowances, key);
        return true;
      }
      if (allowance > amount) {
        putObject(ctx, this.spaces.allowances, key, encode(BALANCE_OBJECT, { value: allowance - amount }));
        return true;
      }
    }
    return ctx.authorize(account);
  }

  private transfer(ctx: CallContext, raw: Uint8Array, args: { from: Uint8Array; to: Uint8Array; value: bigint }): void {
    useCompute(ctx, COMPUTE.koin_transfer);
    check(args.to.length > 0, "account 'to' cannot be null");
    check(args.from.length > 0, "account 'from' cannot be null");
    check(!equalBytes(args.from, args.to), 'cannot transfer to yourself');
    check(
      this.checkAuthority(ctx, args.from, args.value),
      "account 'from' has not authorized transfer",
      ERROR_CODE.authorization_failure,
    );
    const from = this.load(ctx, args.from);
    check(this.balanceOf(from) >= args.value, "account 'from' has insufficient balance", ERROR_CODE.failure);
    this.debit(ctx, from, args.value, 'transfer');
    const to = this.load(ctx, args.to);
    this.credit(ctx, to, args.value);
    this.store(ctx, args.from, from);
    this.store(ctx, args.to, to);
    emit(ctx, this.address, TOKEN_EVENTS.transfer, raw, [args.to, args.from]);
  }

  private mint(ctx: CallContext, raw: Uint8Array, args: { to: Uint8Array; value: bigint }): void {
    useCompute(ctx, COMPUTE.koin_mint);
    check(args.to.length > 0, "account 'to' cannot be null");
    check(args.value !== 0n, "account 'value' cannot be zero");
    check(this.mayMint(ctx), 'insufficient privileges to mint', ERROR_CODE.authorization_failure);
    const supply = this.readSupply(ctx);
    check(supply <= UINT64_MAX - args.value, 'mint would overflow supply', ERROR_CODE.failure);
    const to = this.load(ctx, args.to);
    this.credit(ctx, to, args.value);
    putObject(ctx, this.spaces.supply, EMPTY, this.encodeSupply(supply + args.value));
    this.store(ctx, args.to, to);
    emit(ctx, this.address, TOKEN_EVENTS.mint, raw, [args.to]);
  }

  private burn(ctx: CallContext, raw: Uint8Array, args: { from: Uint8Array; value: bigint }): void {
    useCompute(ctx, COMPUTE.koin_burn);
    check(args.from.length > 0, "account 'from' cannot be null");
    check(
      this.checkAuthority(ctx, args.from, args.value),
      "account 'from' has not authorized burn",
      ERROR_CODE.authorization_failure,
    );
    const from = this.load(ctx, args.from);
    check(this.balanceOf(from) >= args.value, "account 'from' has insufficient balance", ERROR_CODE.failure);
    this.debit(ctx, from, args.value, 'burn');
    const supply = this.readSupply(ctx);
    check(supply >= args.value, 'burn would underflow supply', ERROR_CODE.failure);
    putObject(ctx, this.spaces.supply, EMPTY, this.encodeSupply(supply - args.value));
    this.store(ctx, args.from, from);
    emit(ctx, this.address, TOKEN_EVENTS.burn, raw, [args.from]);
  }

  private approve(
    ctx: CallContext,
    raw: Uint8Array,
    args: { owner: Uint8Array; spender: Uint8Array; value: bigint },
  ): void {
    useCompute(ctx, COMPUTE.koin_mint);
    check(args.owner.length > 0, "account 'owner' cannot be null");
    check(args.spender.length > 0, "account 'spender' cannot be null");
    // System.requireAuthority(contract_call, owner)
    check(
      ctx.authorize(args.owner),
      `account ${toBase58(args.owner)} authorization failed`,
      ERROR_CODE.authorization_failure,
    );
    const key = concatBytes(args.owner, args.spender);
    if (args.value === 0n) removeObject(ctx, this.spaces.allowances, key);
    else putObject(ctx, this.spaces.allowances, key, encode(BALANCE_OBJECT, { value: args.value }));
    emit(ctx, this.address, TOKEN_EVENTS.approve, raw, [args.owner, args.spender]);
  }

  /** Koin.ts get_allowances: walks the allowances after (or before) owner‖start, while the owner matches. */
  private allowances(
    ctx: CallContext,
    args: { owner: Uint8Array; start: Uint8Array; limit: number; descending: boolean },
  ) {
    check(args.owner.length > 0, "account 'owner' cannot be null");
    const from = new Uint8Array(50);
    from.set(args.owner.subarray(0, 25), 0);
    from.set(args.start.subarray(0, 25), 25);
    const all = ctx.view.entries(this.spaces.allowances);
    const compare = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);
    const walk = args.descending
      ? all.filter((e) => compare(e.key, from) < 0).reverse()
      : all.filter((e) => compare(e.key, from) > 0);
    const out: { spender: Uint8Array; value: bigint }[] = [];
    for (const entry of walk) {
      if (out.length >= args.limit) break;
      useCompute(ctx, COMPUTE.get_object);
      if (!equalBytes(entry.key.subarray(0, 25), args.owner)) break;
      out.push({ spender: entry.key.subarray(25), value: decode(BALANCE_OBJECT, entry.value).value });
    }
    return { owner: args.owner, allowances: out };
  }

  /** The entry point's method, if this token has it. */
  method(entryPoint: number): SystemTokenMethod | undefined {
    const m = koinMethodByEntryPoint(entryPoint);
    if (!m) return undefined;
    if (m.name === 'authorize' || m.name === 'effective_balance_of')
      return this.extraMethods.includes(m.name) ? m : undefined;
    return m;
  }

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    const m = this.method(entryPoint);
    if (!m) throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')}`);
    if (!m.readOnly && ctx.readOnly)
      throw reversion('unable to perform action while context is read only', ERROR_CODE.read_only_context);
    switch (m.name) {
      case 'name':
      case 'symbol':
      case 'decimals':
      case 'get_info': {
        useCompute(ctx, COMPUTE.koin_read);
        const info = this.info(ctx.view);
        if (m.name === 'get_info') return encode(m.resultType, info);
        if (m.name === 'decimals') return encode(m.resultType, { value: info.decimals });
        return encode(m.resultType, { value: info[m.name] });
      }
      case 'total_supply':
        useCompute(ctx, COMPUTE.koin_read);
        return encode(m.resultType, { value: this.readSupply(ctx) });
      case 'balance_of': {
        useCompute(ctx, COMPUTE.koin_read);
        const { owner } = decodeArguments(m.argsType, args);
        return encode(m.resultType, { value: this.balanceOf(this.load(ctx, owner)) });
      }
      case 'allowance': {
        useCompute(ctx, COMPUTE.koin_read);
        const a = decodeArguments(m.argsType, args);
        check(a.owner.length > 0, "account 'owner' cannot be null");
        check(a.spender.length > 0, "account 'spender' cannot be null");
        const bytes = getObject(ctx, this.spaces.allowances, concatBytes(a.owner, a.spender));
        return encode(m.resultType, { value: bytes ? decode(BALANCE_OBJECT, bytes).value : 0n });
      }
      case 'get_allowances':
        useCompute(ctx, COMPUTE.koin_read);
        return encode(m.resultType, this.allowances(ctx, decodeArguments(m.argsType, args)));
      case 'transfer':
        this.transfer(ctx, args, decodeArguments(m.argsType, args));
        return EMPTY;
      case 'mint':
        this.mint(ctx, args, decodeArguments(m.argsType, args));
        return EMPTY;
      case 'burn':
        this.burn(ctx, args, decodeArguments(m.argsType, args));
        return EMPTY;
      case 'approve':
        this.approve(ctx, args, decodeArguments(m.argsType, args));
        return EMPTY;
      default: {
        const result = this.extra(ctx, m, args);
        if (result === undefined) throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')}`);
        return result;
      }
    }
  }
}

/** A test token made with devnet.create_token: a plain balance; its owner's signature may mint. */
export class TestToken extends TokenContract<{ value: bigint }> {
  private readonly definition: TokenInfo & { owner: Uint8Array };

  constructor(address: Uint8Array, definition: TokenInfo & { owner: Uint8Array }) {
    super(address);
    this.definition = definition;
  }

  info(): TokenInfo {
    const { name, symbol, decimals } = this.definition;
    return { name, symbol, decimals };
  }

  decodeRecord(bytes: Uint8Array | undefined): { value: bigint } {
    return bytes ? decode(BALANCE_OBJECT, bytes) : { value: 0n };
  }

  encodeRecord(record: { value: bigint }): Uint8Array {
    return encode(BALANCE_OBJECT, record);
  }

  balanceOf(record: { value: bigint }): bigint {
    return record.value;
  }

  protected debit(_ctx: CallContext, record: { value: bigint }, value: bigint): void {
    record.value -= value;
  }

  protected credit(_ctx: CallContext, record: { value: bigint }, value: bigint): void {
    record.value += value;
  }

  protected mayMint(ctx: CallContext): boolean {
    return ctx.authorize(this.definition.owner);
  }

  protected withBalance(_record: { value: bigint }, value: bigint): { value: bigint } {
    return { value };
  }
}
