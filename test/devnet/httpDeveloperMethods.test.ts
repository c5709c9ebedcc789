// The developer methods (JSON-RPC devnet.*) over real HTTP: producing blocks, moving the clock, setting balances,
// test tokens with every KCS-4 entry point, snapshots and reverts, and a reset to a new chain ID; each with a
// success test and a test that bad input is refused with its message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, toBase64Url } from '../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { addressFromString } from '../../src-main/koinos/address.ts';
import { TOKEN_METHODS } from '../../src-main/koinos/koin.ts';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { koinBalance, nextNonce, rpc, rpcError, signedOperationsJson, transferJson } from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const INITIAL = 1_000_000n * KOIN;

let devnet: Devnet;
let url: string;

beforeAll(async () => {
  devnet = await startDevnet({
    port: 0,
    manual: true,
    accounts: 3,
    initialBalance: INITIAL,
    irreversibleDepth: 2,
    signatureThreads: 0,
    log: () => {},
  });
  url = devnet.url;
});

afterAll(async () => {
  await devnet?.stop();
});

type TokenMethodName = keyof typeof TOKEN_METHODS;

/** A signed call of a KCS-4 method on `contract`, from development account `from`, as gateway JSON. */
async function tokenCall(contract: string, from: number, method: TokenMethodName, args: object): Promise<object> {
  const m = TOKEN_METHODS[method];
  return signedOperationsJson(devnet, from, [
    {
      call_contract: {
        contract_id: addressFromString(contract),
        entry_point: m.entryPoint,
        args: encode(m.argsType, args),
      },
    },
  ]);
}

/** Reads a KCS-4 method of `contract` with chain.read_contract; the decoded result. */
async function read<T = any>(contract: string, method: TokenMethodName, args: object = {}): Promise<T> {
  const m = TOKEN_METHODS[method];
  const { result } = await rpc(url, 'chain.read_contract', {
    contract_id: contract,
    entry_point: m.entryPoint,
    args: toBase64Url(encode(m.argsType, args)),
  });
  // Any token method's result, read field by field by each test.
  const resultType: string = m.resultType;
  return decode(resultType, result ? fromBase64(result) : new Uint8Array(0)) as T;
}

async function head(): Promise<{ height: bigint; time: bigint; lib: bigint }> {
  const info = await rpc(url, 'chain.get_head_info', {});
  return {
    height: BigInt(info.head_topology.height ?? 0),
    time: BigInt(info.head_block_time ?? 0),
    lib: BigInt(info.last_irreversible_block ?? 0),
  };
}

const address = (i: number) => devnet.accounts[i]!.address;
const bytes = (i: number) => addressFromString(address(i));

describe('devnet.produce_blocks', () => {
  it('produces N blocks, moving the clock by N × interval_ms, and the irreversible block with them', async () => {
    const before = await head();
    const result = await rpc(url, 'devnet.produce_blocks', { count: 4, interval_ms: '3000' });
    expect(BigInt(result.block_height)).toBe(before.height + 4n);
    const after = await head();
    expect(after.height).toBe(before.height + 4n);
    expect(after.time - before.time).toBeGreaterThanOrEqual(12_000n);
    // --irreversible-depth 2
    expect(after.lib).toBe(after.height - 2n);
  });

  it('refuses a count out of range', async () => {
    const error = await rpcError(url, 'devnet.produce_blocks', { count: 0 });
    expect(error.code).toBe(-32603);
    expect(error.message).toBe('count: expected an integer from 1 to 10000, got 0');
  });
});

describe('devnet.advance_time', () => {
  it('moves the clock and stamps a block with the new time, so mana regenerates at once', async () => {
    await rpc(url, 'chain.submit_transaction', {
      transaction: transferJson(devnet, 2, 1, 100_000n * KOIN, await nextNonce(url, address(2))),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_block', {});
    const spent = BigInt((await rpc(url, 'chain.get_account_rc', { account: address(2) })).rc);
    const before = await head();
    const result = await rpc(url, 'devnet.advance_time', { milliseconds: String(86_400_000) });
    expect(BigInt(result.head_block_time) - before.time).toBeGreaterThanOrEqual(86_400_000n);
    const regenerated = BigInt((await rpc(url, 'chain.get_account_rc', { account: address(2) })).rc);
    // 20% of the balance a day (900,000 KOIN), capped at the balance
    const balance = await koinBalance(url, devnet.koinAddress, address(2));
    expect(regenerated).toBe(spent + balance / 5n > balance ? balance : spent + balance / 5n);
  });

  it('refuses zero milliseconds', async () => {
    const error = await rpcError(url, 'devnet.advance_time', { milliseconds: '0' });
    expect(error.message).toMatch(/^milliseconds: expected 1 to /);
  });
});

describe('devnet.set_balance', () => {
  it('sets a KOIN balance with full mana and adjusts the total supply', async () => {
    const supply = BigInt((await read(devnet.koinAddress, 'total_supply')).value ?? 0);
    const old = await koinBalance(url, devnet.koinAddress, address(0));
    await rpc(url, 'devnet.set_balance', { account: address(0), value: String(5n * KOIN) });
    expect(await koinBalance(url, devnet.koinAddress, address(0))).toBe(5n * KOIN);
    expect(BigInt((await rpc(url, 'chain.get_account_rc', { account: address(0) })).rc)).toBe(5n * KOIN);
    expect(BigInt((await read(devnet.koinAddress, 'total_supply')).value)).toBe(supply - old + 5n * KOIN);
    await rpc(url, 'devnet.set_balance', { account: address(0), value: String(old) });
  });

  it('makes no block when it refuses a balance, so waiting transactions keep waiting and each height has one block', async () => {
    const height = async () => BigInt((await rpc(url, 'chain.get_head_info', {})).head_topology.height);
    const waiting = async () =>
      ((await rpc(url, 'mempool.get_pending_transactions', { limit: '10' })).pending_transactions ?? []).length;
    const start = await height();
    const nonce = await nextNonce(url, address(1));
    await rpc(url, 'chain.submit_transaction', {
      transaction: transferJson(devnet, 1, 2, KOIN, nonce),
      broadcast: true,
    });
    const tooMuch = { account: address(2), value: String((1n << 64n) - 1n) };
    const error = await rpcError(url, 'devnet.set_balance', tooMuch);
    expect(error.message).toMatch(/^value: the total supply would exceed .*; choose a smaller balance$/);
    expect([await height(), await waiting(), await nextNonce(url, address(1))]).toEqual([start, 1, nonce]);

    // Refused between two blocks asked at the same moment: two blocks, one on the other.
    const [refused] = await Promise.allSettled([
      rpcError(url, 'devnet.set_balance', tooMuch),
      rpc(url, 'devnet.produce_block', {}),
      rpc(url, 'devnet.produce_block', {}),
    ]);
    expect(refused.status).toBe('fulfilled');
    expect(await height()).toBe(start + 2n);
    const { block_items } = await rpc(url, 'block_store.get_blocks_by_height', {
      head_block_id: (await rpc(url, 'chain.get_head_info', {})).head_topology.id,
      ancestor_start_height: String(start + 1n),
      num_blocks: 2,
      return_block: true,
      return_receipt: false,
    });
    expect(block_items.map((b: { block_height: string }) => BigInt(b.block_height))).toEqual([start + 1n, start + 2n]);
    expect(block_items[1].block.header.previous).toBe(block_items[0].block_id);
    expect(await waiting()).toBe(0);
  });

  it('refuses a contract that is not a token of the devnet', async () => {
    const error = await rpcError(url, 'devnet.set_balance', {
      contract_id: address(1),
      account: address(0),
      value: '1',
    });
    expect(error.message).toBe(
      `contract_id: expected KOIN, VHP or a token made with devnet.create_token, got ${address(1)}`,
    );
  });
});

describe('devnet.create_token', () => {
  it('creates a KCS-4 token that answers every entry point through read_contract and submitted transactions', async () => {
    const created = await rpc(url, 'devnet.create_token', {
      name: 'Test Dollar',
      symbol: 'TUSD',
      decimals: 6,
      initial_supply: '1000000000',
      owner: address(0),
    });
    const token: string = created.contract_id;
    expect(await read(token, 'name')).toEqual({ value: 'Test Dollar' });
    expect(await read(token, 'symbol')).toEqual({ value: 'TUSD' });
    expect(await read(token, 'decimals')).toEqual({ value: 6 });
    expect(await read(token, 'get_info')).toEqual({ name: 'Test Dollar', symbol: 'TUSD', decimals: 6 });
    expect(await read(token, 'total_supply')).toEqual({ value: 1_000_000_000n });
    expect(await read(token, 'balance_of', { owner: bytes(0) })).toEqual({ value: 1_000_000_000n });

    // transfer: the standard event, in the receiver's account history
    const { receipt } = await rpc(url, 'chain.submit_transaction', {
      transaction: await tokenCall(token, 0, 'transfer', { from: bytes(0), to: bytes(1), value: 250n }),
      broadcast: true,
    });
    expect(receipt.events).toEqual([
      expect.objectContaining({ source: token, name: 'token.transfer_event', impacted: [address(1), address(0)] }),
    ]);
    await rpc(url, 'devnet.produce_block', {});
    expect(await read(token, 'balance_of', { owner: bytes(1) })).toEqual({ value: 250n });
    const history = await rpc(url, 'account_history.get_account_history', {
      address: address(1),
      limit: 1,
      ascending: false,
      irreversible: false,
    });
    expect(history.values[0].trx.receipt.events[0].name).toBe('token.transfer_event');

    // approve, allowance, get_allowances; value 0 removes
    await rpc(url, 'chain.submit_transaction', {
      transaction: await tokenCall(token, 0, 'approve', { owner: bytes(0), spender: bytes(2), value: 40n }),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_block', {});
    expect(await read(token, 'allowance', { owner: bytes(0), spender: bytes(2) })).toEqual({ value: 40n });
    expect(await read(token, 'get_allowances', { owner: bytes(0), limit: 10 })).toEqual({
      owner: bytes(0),
      allowances: [{ spender: bytes(2), value: 40n }],
    });
    await rpc(url, 'chain.submit_transaction', {
      transaction: await tokenCall(token, 0, 'approve', { owner: bytes(0), spender: bytes(2), value: 0n }),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_block', {});
    expect(await read(token, 'allowance', { owner: bytes(0), spender: bytes(2) })).toEqual({ value: 0n });
    expect(await read(token, 'get_allowances', { owner: bytes(0), limit: 10 })).toEqual({
      owner: bytes(0),
      allowances: [],
    });

    // mint by the owner; anyone else is refused; burn by a holder
    await rpc(url, 'chain.submit_transaction', {
      transaction: await tokenCall(token, 0, 'mint', { to: bytes(2), value: 7n }),
      broadcast: true,
    });
    const refused = await rpcError(url, 'chain.submit_transaction', {
      transaction: await tokenCall(token, 1, 'mint', { to: bytes(1), value: 7n }),
      broadcast: true,
    });
    expect(refused.message).toBe('insufficient privileges to mint');
    expect(JSON.parse(refused.data!).code).toBe(1);
    await rpc(url, 'devnet.produce_block', {});
    await rpc(url, 'chain.submit_transaction', {
      transaction: await tokenCall(token, 1, 'burn', { from: bytes(1), value: 50n }),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_block', {});
    expect(await read(token, 'balance_of', { owner: bytes(2) })).toEqual({ value: 7n });
    expect(await read(token, 'balance_of', { owner: bytes(1) })).toEqual({ value: 200n });
    expect(await read(token, 'total_supply')).toEqual({ value: 1_000_000_000n + 7n - 50n });

    // devnet.set_balance works on test tokens too
    await rpc(url, 'devnet.set_balance', { contract_id: token, account: address(2), value: '1000' });
    expect(await read(token, 'balance_of', { owner: bytes(2) })).toEqual({ value: 1000n });
  });

  it('refuses a symbol that is not 1 to 16 letters or digits, and a missing owner', async () => {
    expect(
      (await rpcError(url, 'devnet.create_token', { name: 'X', symbol: 'no spaces', owner: address(0) })).message,
    ).toMatch(/^symbol: expected 1 to 16/);
    const missing = await rpcError(url, 'devnet.create_token', { name: 'X', symbol: 'X' });
    expect(missing.code).toBe(-32601);
    expect(missing.data).toMatch(/^parameters could not be parsed: owner: expected a Koinos address/);
  });
});

describe('devnet.snapshot and devnet.revert', () => {
  it('goes back to the snapshot: blocks, balances and history after it are gone', async () => {
    const { id } = await rpc(url, 'devnet.snapshot', {});
    const before = await head();
    const balance = await koinBalance(url, devnet.koinAddress, address(1));
    await rpc(url, 'chain.submit_transaction', {
      transaction: transferJson(devnet, 0, 1, KOIN, await nextNonce(url, address(0))),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_blocks', { count: 3 });
    expect(await koinBalance(url, devnet.koinAddress, address(1))).toBe(balance + KOIN);
    const reverted = await rpc(url, 'devnet.revert', { id });
    expect(BigInt(reverted.block_height)).toBe(before.height);
    expect((await head()).height).toBe(before.height);
    expect(await koinBalance(url, devnet.koinAddress, address(1))).toBe(balance);
    const error = await rpcError(url, 'block_store.get_blocks_by_height', {
      head_block_id: reverted.block_id,
      ancestor_start_height: String(before.height + 1n),
      num_blocks: 1,
    });
    expect(error.message).toBe('Block height mismatch');
    // the chain goes on from there
    await rpc(url, 'chain.submit_transaction', {
      transaction: transferJson(devnet, 0, 1, KOIN, await nextNonce(url, address(0))),
      broadcast: true,
    });
    await rpc(url, 'devnet.produce_block', {});
    expect(await koinBalance(url, devnet.koinAddress, address(1))).toBe(balance + KOIN);
  });

  it('refuses a snapshot id that was used or never given', async () => {
    const { id } = await rpc(url, 'devnet.snapshot', {});
    await rpc(url, 'devnet.revert', { id });
    expect((await rpcError(url, 'devnet.revert', { id })).message).toMatch(
      /^id: expected a snapshot taken with devnet.snapshot/,
    );
    expect((await rpcError(url, 'devnet.revert', { id: '999' })).message).toMatch(/^id: expected a snapshot/);
  });
});

describe('devnet.reset', () => {
  it('replaces the chain with a new one with a new chain ID while running', async () => {
    const oldChainId = devnet.chainId;
    const transfer = transferJson(devnet, 0, 1, KOIN, await nextNonce(url, address(0)));
    const { chain_id } = await rpc(url, 'devnet.reset', {});
    expect(chain_id).not.toBe(oldChainId);
    expect((await rpc(url, 'chain.get_chain_id', {})).chain_id).toBe(chain_id);
    expect(devnet.chainId).toBe(chain_id);
    expect((await head()).height).toBe(0n);
    expect(await koinBalance(url, devnet.koinAddress, address(1))).toBe(INITIAL);
    // a transaction signed for the old chain is refused
    const error = await rpcError(url, 'chain.submit_transaction', { transaction: transfer, broadcast: true });
    expect(error.message).toBe('chain id mismatch');
  });

  it('refuses more accounts than the devnet can fund', async () => {
    expect((await rpcError(url, 'devnet.reset', { accounts: 5000 })).message).toMatch(
      /^accounts: expected an integer from 0 to 1000/,
    );
  });
});
