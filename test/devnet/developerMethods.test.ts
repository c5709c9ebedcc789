// Developer methods and tokens at the service level: a revert and a reset survive a restart of a data directory,
// and an approved contract caller spends an allowance as Koin.ts _check_authority does (a transaction's own
// operation has no caller, so only a contract can, which the devnet cannot run yet: tested on the contract itself).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { equalBytes } from '../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { TOKEN_METHODS } from '../../src-main/koinos/koin.ts';
import { openNode } from '../../src-main/devnet/node.ts';
import { TestToken } from '../../src-main/devnet/contracts/token.ts';
import type { CallContext } from '../../src-main/devnet/contracts/context.ts';
import { labelAddress } from '../../src-main/devnet/chain/genesis.ts';
import { BaseState, StateView } from '../../src-main/devnet/state/state.ts';
import type { DevnetNode } from '../../src-main/devnet/types.ts';
import { balanceOf, key, KOIN, submit, transferTx } from './helpers.ts';

const dirs: string[] = [];
const nodes: DevnetNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((n) => n.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(dataDir: string): Promise<DevnetNode> {
  const n = await openNode({ manual: true, accounts: 3, signatureThreads: 0, log: () => {}, dataDir });
  nodes.push(n);
  return n;
}

const A = key(0);
const B = key(1);

describe('developer methods on a data directory', () => {
  it('keeps a revert across a restart: the dropped blocks, balances and history stay gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-dev-'));
    dirs.push(dir);
    let n = await open(dir);
    await n.produceBlock();
    const id = await n.snapshot();
    await submit(n, await transferTx(n, A, B, KOIN));
    await n.produceBlocks(3);
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_001n * KOIN);
    await n.revert(id);
    await n.close();
    n = await open(dir);
    expect(
      ((await n.call('chain.get_head_info', {})) as { head_topology: { height: bigint } }).head_topology.height,
    ).toBe(1n);
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_000n * KOIN);
    const { values } = (await n.call('account_history.get_account_history', {
      address: B.addressBytes,
      limit: 10n,
      ascending: true,
      irreversible: false,
    })) as {
      values: unknown[];
    };
    expect(values).toEqual([]);
    // and goes on
    await submit(n, await transferTx(n, A, B, 2n * KOIN));
    await n.produceBlock();
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_002n * KOIN);
  });

  it('keeps a reset across a restart: the new chain ID and a fresh chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-dev-'));
    dirs.push(dir);
    let n = await open(dir);
    await submit(n, await transferTx(n, A, B, KOIN));
    await n.produceBlock();
    const chainId = await n.reset();
    expect(equalBytes(chainId, n.chainId)).toBe(true);
    await n.close();
    n = await open(dir);
    expect(equalBytes(n.chainId, chainId)).toBe(true);
    expect(await balanceOf(n, B.addressBytes)).toBe(1_000_000n * KOIN);
  });

  it('refuses bad developer input with INVALID_ARGUMENT before anything changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-dev-'));
    dirs.push(dir);
    const n = await open(dir);
    await expect(n.produceBlocks(0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(n.advanceTime(0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(n.createToken({ name: '', symbol: 'T', owner: A.addressBytes })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(n.revert(42n)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(
      ((await n.call('chain.get_head_info', {})) as { head_topology: { height?: bigint } }).head_topology.height ?? 0n,
    ).toBe(0n);
  });
});

describe('allowances spent by a contract caller (Koin.ts _check_authority)', () => {
  const owner = A.addressBytes;
  const spenderContract = labelAddress('a contract that was approved');
  const token = new TestToken(labelAddress('allowance test token'), { name: 'T', symbol: 'T', decimals: 0, owner });

  function ctx(view: StateView, caller: Uint8Array, signer: Uint8Array | undefined): CallContext {
    return {
      view,
      headBlockTime: 1n,
      blockHeight: 1n,
      readOnly: false,
      genesisAddress: new Uint8Array(25),
      caller,
      events: [],
      sequence: { next: 0 },
      authorize: (account) => signer !== undefined && equalBytes(account, signer),
    };
  }

  const call = (c: CallContext, name: keyof typeof TOKEN_METHODS, args: object) =>
    token.call(c, TOKEN_METHODS[name].entryPoint, encode(TOKEN_METHODS[name].argsType, args));
  const allowance = (view: StateView) =>
    decode(
      TOKEN_METHODS.allowance.resultType,
      call({ ...ctx(view, new Uint8Array(0), undefined), readOnly: true }, 'allowance', {
        owner,
        spender: spenderContract,
      }),
    ).value;

  it('lets the approved caller transfer up to the allowance, reducing it, and removes it when used up', () => {
    const view = new StateView(new BaseState());
    token.setBalance(view, owner, 100n, 1n, 1n);
    call(ctx(view, new Uint8Array(0), owner), 'approve', { owner, spender: spenderContract, value: 30n });
    expect(allowance(view)).toBe(30n);
    // the caller is the approved contract; nobody signed for the owner
    call(ctx(view, spenderContract, undefined), 'transfer', { from: owner, to: B.addressBytes, value: 20n });
    expect(allowance(view)).toBe(10n);
    expect(() =>
      call(ctx(view, spenderContract, undefined), 'transfer', { from: owner, to: B.addressBytes, value: 11n }),
    ).toThrow("account 'from' has not authorized transfer");
    call(ctx(view, spenderContract, undefined), 'transfer', { from: owner, to: B.addressBytes, value: 10n });
    expect(allowance(view)).toBe(0n);
    expect(token.balanceOf(token.record(view, B.addressBytes))).toBe(30n);
  });

  it('does not let a transaction signed by the spender (no contract caller) use the allowance', () => {
    const view = new StateView(new BaseState());
    token.setBalance(view, owner, 100n, 1n, 1n);
    call(ctx(view, new Uint8Array(0), owner), 'approve', { owner, spender: B.addressBytes, value: 30n });
    expect(() =>
      call(ctx(view, new Uint8Array(0), B.addressBytes), 'transfer', { from: owner, to: B.addressBytes, value: 5n }),
    ).toThrow("account 'from' has not authorized transfer");
  });
});
