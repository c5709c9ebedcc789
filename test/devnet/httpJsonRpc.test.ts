// JSON-RPC over real HTTP on port 0: the gateway's envelope checks and error codes, and every method of the devnet with
// one success case and one error case that asserts the code (and the message and data where the gateway fixes them).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startDevnet, type Devnet } from '../../src-main/devnet/server/startDevnet.ts';
import { fromBase64, toBase64Url } from '../../src-main/koinos/bytes.ts';
import { addressFieldPaths, decode, encode } from '../../src-main/koinos/codec.ts';
import { requestType } from '../../src-main/devnet/methods.ts';
import { addressFromPublicKey, addressFromString, addressToString } from '../../src-main/koinos/address.ts';
import { privateKeyFromHex, publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { encodeKoinArgs, KOIN_METHODS } from '../../src-main/koinos/koin.ts';
import { DEVELOPER_METHODS } from '../../src-main/devnet/methods.ts';
import { nonceFromBytes } from '../../src-main/koinos/transaction.ts';
import {
  corruptAddress,
  expectAddressError,
  invalidAddresses,
  koinBalance,
  rpc,
  rpcError,
  rpcRaw,
  transferJson,
} from './httpHelpers.ts';
import { KOIN } from '../helpers/constants.ts';

const INITIAL = 1_000_000n * KOIN;
/** An address no one holds a key for here: never funded, never used. */
const STRANGER = addressToString(addressFromPublicKey(publicKeyFromPrivateKey(privateKeyFromHex('11'.repeat(32)))));

let devnet: Devnet;
let url: string;
/** The transfer 0 -> 1 included in the first block of the tests, and that block. */
let includedTx: string;
let includedBlock: string;
let includedHeight: string;
/** A transfer from account 3 left pending in the mempool (manual mode: no block until asked). */
let pendingTx: string;
const PENDING_RC_LIMIT = 50_000_000n;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, manual: true, accounts: 5, initialBalance: INITIAL, log: () => {} });
  url = devnet.url;
  const { receipt } = await rpc(url, 'chain.submit_transaction', {
    transaction: transferJson(devnet, 0, 1, 5n * KOIN, 1n),
    broadcast: true,
  });
  includedTx = receipt.id;
  const produced = await rpc(url, 'devnet.produce_block', {});
  includedBlock = produced.block_id;
  includedHeight = produced.block_height;
  const pending = transferJson(devnet, 3, 4, 1n * KOIN, 1n, PENDING_RC_LIMIT);
  pendingTx = (await rpc(url, 'chain.submit_transaction', { transaction: pending, broadcast: true })).receipt.id;
});

afterAll(async () => {
  await devnet?.stop();
});

const UNPARSEABLE = 'parameters could not be parsed: ';

/** The gateway's -32601 for params it cannot parse; the devnet adds after a colon which field and why (`detail`). */
function expectUnparseableParams(error: { code: number; message: string; data?: string }, detail?: RegExp): void {
  expect(error.code).toBe(-32601);
  expect(error.message).toBe('Unable to translate request');
  expect(error.data?.startsWith(UNPARSEABLE), error.data).toBe(true);
  expect(error.data!.length).toBeGreaterThan(UNPARSEABLE.length);
  if (detail) expect(error.data!.slice(UNPARSEABLE.length)).toMatch(detail);
}

function expectNodeRefusal(error: { code: number; message: string; data?: string }): void {
  expect(error.code).toBe(-32603);
  expect(error.message).toBeTypeOf('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.message).not.toBe('An internal server error has occurred');
}

async function head(): Promise<{ id: string; height: string }> {
  return (await rpc(url, 'chain.get_head_info')).head_topology;
}

interface MethodCases {
  /** Absent only where no client can make a valid request (see the case). */
  success?: () => Promise<void>;
  error: () => Promise<void>;
}

/** Methods the devnet must answer: those of the node API spec and those koilib's Provider calls. */
const REQUIRED: Record<string, MethodCases> = {
  'chain.get_chain_id': {
    success: async () => expect(await rpc(url, 'chain.get_chain_id')).toEqual({ chain_id: devnet.chainId }),
    error: async () => expectUnparseableParams(await rpcError(url, 'chain.get_chain_id', 'not an object')),
  },
  'chain.get_head_info': {
    success: async () => {
      const info = await rpc(url, 'chain.get_head_info');
      expect(info.head_topology.id).toBe(includedBlock);
      expect(info.head_topology.height).toBe(includedHeight);
      expect(info.head_block_time).toMatch(/^\d+$/);
      expect(info.head_state_merkle_root).toMatch(/^[A-Za-z0-9_-]+=*$/);
    },
    error: async () => expectUnparseableParams(await rpcError(url, 'chain.get_head_info', [1, 2])),
  },
  'chain.get_account_rc': {
    success: async () => {
      expect(await rpc(url, 'chain.get_account_rc', { account: devnet.accounts[2]!.address })).toEqual({
        rc: INITIAL.toString(),
      });
      // The gateway omits default values: an account without mana gets an empty object.
      expect(await rpc(url, 'chain.get_account_rc', { account: STRANGER })).toEqual({});
    },
    error: async () => expectUnparseableParams(await rpcError(url, 'chain.get_account_rc', { account: 12345 })),
  },
  'chain.get_account_nonce': {
    success: async () => {
      const { nonce } = await rpc(url, 'chain.get_account_nonce', { account: devnet.accounts[0]!.address });
      expect(nonceFromBytes(fromBase64(nonce))).toBe(1n);
    },
    error: async () =>
      expectUnparseableParams(await rpcError(url, 'chain.get_account_nonce', { account: '0OIl not base58' })),
  },
  'chain.submit_transaction': {
    success: async () => {
      // broadcast:false executes and returns the receipt but changes nothing.
      const { receipt } = await rpc(url, 'chain.submit_transaction', {
        transaction: transferJson(devnet, 2, 4, 2n * KOIN, 1n),
        broadcast: false,
      });
      expect(receipt.payer).toBe(devnet.accounts[2]!.address);
      expect(BigInt(receipt.rc_used)).toBeGreaterThan(0n);
      expect(
        receipt.events.map((e: { name: string }) => e.name).some((n: string) => n.endsWith('transfer_event')),
      ).toBe(true);
      expect(await koinBalance(url, devnet.koinAddress, devnet.accounts[2]!.address)).toBe(INITIAL);
      expect(
        (await rpc(url, 'chain.get_account_nonce', { account: devnet.accounts[2]!.address })).nonce ?? 'KAA=',
      ).toBe('KAA=');
    },
    error: async () => {
      // Nonce 1 of account 0 is already used.
      const error = await rpcError(url, 'chain.submit_transaction', {
        transaction: transferJson(devnet, 0, 2, 1n, 1n),
        broadcast: true,
      });
      expectNodeRefusal(error);
      expect(JSON.parse(error.data!).code).toBe(-201);
    },
  },
  'chain.read_contract': {
    success: async () => {
      const { result } = await rpc(url, 'chain.read_contract', {
        contract_id: devnet.koinAddress,
        entry_point: KOIN_METHODS.balance_of.entryPoint,
        args: toBase64Url(encodeKoinArgs('balance_of', { owner: addressFromString(devnet.accounts[1]!.address) })),
      });
      expect(decode(KOIN_METHODS.balance_of.resultType, fromBase64(result)).value).toBe(INITIAL + 5n * KOIN);
    },
    error: async () =>
      expectNodeRefusal(
        await rpcError(url, 'chain.read_contract', {
          contract_id: STRANGER,
          entry_point: KOIN_METHODS.balance_of.entryPoint,
          args: '',
        }),
      ),
  },
  'chain.get_resource_limits': {
    success: async () => {
      const { resource_limit_data: limits } = await rpc(url, 'chain.get_resource_limits');
      for (const field of [
        'disk_storage_limit',
        'network_bandwidth_limit',
        'compute_bandwidth_limit',
        'network_bandwidth_cost',
        'compute_bandwidth_cost',
      ]) {
        expect(limits[field], field).toMatch(/^[1-9]\d*$/);
      }
    },
    error: async () => expectUnparseableParams(await rpcError(url, 'chain.get_resource_limits', 7)),
  },
  'chain.get_fork_heads': {
    success: async () => {
      const { fork_heads: forkHeads } = await rpc(url, 'chain.get_fork_heads');
      expect(forkHeads[0]).toEqual(await head());
    },
    error: async () => expectUnparseableParams(await rpcError(url, 'chain.get_fork_heads', 'x')),
  },
  'chain.invoke_system_call': {
    success: async () => {
      const args = toBase64Url(encode('koinos.contracts.name_service.get_address_arguments', { name: 'koin' }));
      const { value } = await rpc(url, 'chain.invoke_system_call', { name: 'get_contract_address', args });
      const result = decode('koinos.contracts.name_service.get_address_result', fromBase64(value));
      expect(addressToString(result.value!.address)).toBe(devnet.koinAddress);
    },
    error: async () =>
      expectNodeRefusal(await rpcError(url, 'chain.invoke_system_call', { name: 'no_such_system_call', args: '' })),
  },
  'block_store.get_blocks_by_id': {
    success: async () => {
      const { block_items: items } = await rpc(url, 'block_store.get_blocks_by_id', {
        block_ids: [includedBlock],
        return_block: true,
        return_receipt: true,
      });
      expect(items).toHaveLength(1);
      expect(items[0].block_id).toBe(includedBlock);
      expect(items[0].block_height).toBe(includedHeight);
      expect(items[0].block.transactions.map((t: { id: string }) => t.id)).toEqual([includedTx]);
      expect(items[0].receipt.transaction_receipts[0].id).toBe(includedTx);
    },
    error: async () =>
      expectUnparseableParams(await rpcError(url, 'block_store.get_blocks_by_id', { block_ids: ['0x1'] })),
  },
  'block_store.get_blocks_by_height': {
    success: async () => {
      const { block_items: items } = await rpc(url, 'block_store.get_blocks_by_height', {
        head_block_id: (await head()).id,
        ancestor_start_height: includedHeight,
        num_blocks: 1,
        return_block: false,
        return_receipt: false,
      });
      expect(items).toEqual([{ block_id: includedBlock, block_height: includedHeight }]);
    },
    error: async () =>
      expectUnparseableParams(
        await rpcError(url, 'block_store.get_blocks_by_height', { head_block_id: includedBlock, num_blocks: -1 }),
      ),
  },
  'transaction_store.get_transactions_by_id': {
    success: async () => {
      const { transactions } = await rpc(url, 'transaction_store.get_transactions_by_id', {
        transaction_ids: [includedTx],
      });
      expect(transactions).toHaveLength(1);
      expect(transactions[0].transaction.id).toBe(includedTx);
      expect(transactions[0].containing_blocks).toEqual([includedBlock]);
    },
    error: async () =>
      expectUnparseableParams(
        await rpcError(url, 'transaction_store.get_transactions_by_id', { transaction_ids: ['not hex'] }),
      ),
  },
  'mempool.get_pending_nonce': {
    success: async () => {
      const { nonce } = await rpc(url, 'mempool.get_pending_nonce', { payee: devnet.accounts[3]!.address });
      expect(nonceFromBytes(fromBase64(nonce))).toBe(1n);
    },
    error: async () => expectUnparseableParams(await rpcError(url, 'mempool.get_pending_nonce', { payee: true })),
  },
  'account_history.get_account_history': {
    success: async () => {
      const { values } = await rpc(url, 'account_history.get_account_history', {
        address: devnet.accounts[1]!.address,
        limit: '10',
        ascending: true,
        irreversible: false,
      });
      const ids = values.filter((v: any) => v.trx).map((v: any) => v.trx.transaction.id);
      expect(ids).toContain(includedTx);
      // Sequence numbers start at 0, which the gateway omits.
      expect(values[0].seq_num).toBeUndefined();
    },
    error: async () =>
      expectNodeRefusal(
        await rpcError(url, 'account_history.get_account_history', {
          address: devnet.accounts[1]!.address,
          limit: '501',
          irreversible: false,
        }),
      ),
  },
};

/** Further methods of the real node; tested when the devnet offers them. */
const OPTIONAL: Record<string, MethodCases> = {
  'block_store.get_highest_block': {
    success: async () => expect((await rpc(url, 'block_store.get_highest_block')).topology).toEqual(await head()),
    error: async () => expectUnparseableParams(await rpcError(url, 'block_store.get_highest_block', 'x')),
  },
  'mempool.get_pending_transactions': {
    success: async () => {
      const { pending_transactions: pending } = await rpc(url, 'mempool.get_pending_transactions', { limit: '100' });
      expect(pending.map((p: any) => p.transaction.id)).toContain(pendingTx);
    },
    error: async () =>
      expectUnparseableParams(await rpcError(url, 'mempool.get_pending_transactions', { limit: 'lots' })),
  },
  'mempool.get_pending_transactions_by_id': {
    success: async () => {
      const { pending_transactions: pending } = await rpc(url, 'mempool.get_pending_transactions_by_id', {
        transaction_ids: [pendingTx],
      });
      expect(pending.map((p: any) => p.transaction.id)).toEqual([pendingTx]);
    },
    error: async () =>
      expectUnparseableParams(await rpcError(url, 'mempool.get_pending_transactions_by_id', { transaction_ids: 'x' })),
  },
  'mempool.get_pending_transaction_count': {
    success: async () =>
      expect(await rpc(url, 'mempool.get_pending_transaction_count', { payee: devnet.accounts[3]!.address })).toEqual({
        count: '1',
      }),
    error: async () =>
      expectUnparseableParams(await rpcError(url, 'mempool.get_pending_transaction_count', { payee: 1 })),
  },
  'mempool.get_reserved_account_rc': {
    success: async () =>
      expect(await rpc(url, 'mempool.get_reserved_account_rc', { account: devnet.accounts[3]!.address })).toEqual({
        rc: PENDING_RC_LIMIT.toString(),
      }),
    error: async () => expectUnparseableParams(await rpcError(url, 'mempool.get_reserved_account_rc', { account: [] })),
  },
  'mempool.check_pending_account_resources': {
    success: async () =>
      expect(
        await rpc(url, 'mempool.check_pending_account_resources', {
          payer: devnet.accounts[3]!.address,
          max_payer_rc: INITIAL.toString(),
          rc_limit: '1',
        }),
      ).toEqual({ success: true }),
    error: async () =>
      expectUnparseableParams(await rpcError(url, 'mempool.check_pending_account_resources', { rc_limit: '-1' })),
  },
  'mempool.check_account_nonce': {
    success: async () =>
      expect(
        await rpc(url, 'mempool.check_account_nonce', { payee: devnet.accounts[3]!.address, nonce: 'KAI=' }),
      ).toEqual({ success: true }),
    error: async () => expectUnparseableParams(await rpcError(url, 'mempool.check_account_nonce', { nonce: '!!' })),
  },
  'chain.submit_block': {
    // A valid block needs the genesis key's signature, which clients do not hold; only the rejection is tested.
    error: async () =>
      expectNodeRefusal(await rpcError(url, 'chain.submit_block', { block: { header: { height: '999' } } })),
  },
  'chain.propose_block': {
    // Like submit_block: only the genesis key can sign a block.
    error: async () => expectNodeRefusal(await rpcError(url, 'chain.propose_block', { block: {} })),
  },
};

/** Last, because it moves the head (and includes the pending transfer). */
const PRODUCE_BLOCK: MethodCases = {
  success: async () => {
    const before = await head();
    const produced = await rpc(url, 'devnet.produce_block', {});
    expect(produced.block_height).toBe((BigInt(before.height) + 1n).toString());
    expect(await head()).toEqual({ id: produced.block_id, height: produced.block_height, previous: before.id });
    const { transactions } = await rpc(url, 'transaction_store.get_transactions_by_id', {
      transaction_ids: [pendingTx],
    });
    expect(transactions[0].containing_blocks).toEqual([produced.block_id]);
  },
  error: async () => expectUnparseableParams(await rpcError(url, 'devnet.produce_block', 'now')),
};

describe('JSON-RPC envelope (gateway rules)', () => {
  it('answers a body that is not JSON with -32700 "Unable to parse request" and id null', async () => {
    const { status, body } = await rpcRaw(url, '{"jsonrpc": "2.0", "id": 1, ');
    expect(status).toBe(200);
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32700);
    expect(body.error.message).toBe('Unable to parse request');
    expect(body.error.data).toBeTypeOf('string');
  });

  it('answers a JSON value that is not a request object with -32700', async () => {
    for (const text of ['[]', '42', '"chain.get_chain_id"', 'null']) {
      const { body } = await rpcRaw(url, text);
      expect(body.error.code, text).toBe(-32700);
      expect(body.id).toBeNull();
    }
  });

  it('rejects a missing or malformed id with -32600 and id null', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'missing ID'],
      [1.5, 'ID must not contain fractional parts'],
      [true, 'an ID must be a Number (non-fractional), String, or Null'],
      [{ a: 1 }, 'an ID must be a Number (non-fractional), String, or Null'],
    ];
    for (const [id, data] of cases) {
      const { body } = await rpcRaw(url, { jsonrpc: '2.0', id, method: 'chain.get_chain_id', params: {} });
      expect(body).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request', data }, id: null });
    }
  });

  it('rejects a wrong or missing JSON-RPC version with -32600, echoing the id', async () => {
    for (const jsonrpc of [undefined, '1.0']) {
      const { body } = await rpcRaw(url, { jsonrpc, id: 'abc', method: 'chain.get_chain_id' });
      expect(body).toEqual({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid request', data: 'invalid or missing JSON RPC version was specified' },
        id: 'abc',
      });
    }
  });

  it('accepts string, integer and null ids and echoes them', async () => {
    for (const id of ['x-1', 0, 99, null]) {
      const { body } = await rpcRaw(url, { jsonrpc: '2.0', id, method: 'chain.get_chain_id' });
      expect(body).toEqual({ jsonrpc: '2.0', result: { chain_id: devnet.chainId }, id });
    }
  });

  it('rejects malformed methods, unknown services and unknown methods with -32601', async () => {
    const cases: [unknown, string][] = [
      ['chain', 'methods should be in the format service_name.method_name'],
      ['a.b.c', 'methods should be in the format service_name.method_name'],
      ['.get_chain_id', 'methods should be in the format service_name.method_name'],
      [undefined, 'methods should be in the format service_name.method_name'],
      ['wallet.get_balance', 'invalid service name provided'],
      ['chain.get_everything', 'unknown method'],
    ];
    for (const [method, data] of cases) {
      const { body } = await rpcRaw(url, { jsonrpc: '2.0', id: 5, method, params: {} });
      expect(body, String(method)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32601, message: 'Unable to translate request', data },
        id: 5,
      });
    }
  });

  it('reports unparseable params as -32601 (not -32602), as the gateway does, naming the field and the problem', async () => {
    expectUnparseableParams(
      await rpcError(url, 'chain.get_account_rc', { account: 'O0Il' }),
      /^account: expected an address in base58, got "O" at character 1, which base58 does not use$/,
    );
    expectUnparseableParams(
      await rpcError(url, 'chain.get_account_rc', ['1']),
      /^expected a JSON object, got an array of 1$/,
    );
    expectUnparseableParams(
      await rpcError(url, 'chain.get_account_rc', { account: 7 }),
      /^account: expected a string, got number 7$/,
    );
    expectUnparseableParams(
      await rpcError(url, 'block_store.get_blocks_by_height', { ancestor_start_height: '1.5' }),
      /^ancestor_start_height: expected an unsigned 64-bit integer as a decimal string, got "1.5"$/,
    );
    expectUnparseableParams(
      await rpcError(url, 'block_store.get_blocks_by_id', { block_ids: [includedBlock, '0x12'.padEnd(7, 'z')] }),
      /^expected block_ids\[1\] .*hex.*, got "0x12zzz"$/,
    );
    expectUnparseableParams(
      await rpcError(url, 'chain.read_contract', { args: 'a!b' }),
      /^expected args .*base64.*, got the character "!" at position 1$/,
    );
  });

  // Ids beyond 2^53 are not tested for exactness: JSON.parse rounds them, and so does the gateway (Go's float64).

  it('accepts the fully qualified method name and POST / like the real gateway', async () => {
    expect(await rpc(url, 'koinos.rpc.chain.get_chain_id')).toEqual({ chain_id: devnet.chainId });
    const { body } = await rpcRaw(url, { jsonrpc: '2.0', id: 1, method: 'chain.get_chain_id' }, { path: '/' });
    expect(body.result).toEqual({ chain_id: devnet.chainId });
  });

  it('treats absent or null params as an empty request', async () => {
    for (const params of [undefined, null]) {
      const { body } = await rpcRaw(url, { jsonrpc: '2.0', id: 2, method: 'chain.get_chain_id', params });
      expect(body.result).toEqual({ chain_id: devnet.chainId });
    }
  });

  it('reports a chain error as -32603 with the chain message and data carrying the chain error code', async () => {
    const tx = transferJson(devnet, 0, 2, 1n, 1n);
    const error = await rpcError(url, 'chain.submit_transaction', { transaction: tx, broadcast: true });
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/nonce/);
    const data = JSON.parse(error.data!);
    expect(data.code).toBe(-201);
    // koilib turns this into Error('{"error": message, ...data}'); the parts it needs are there.
    expect(JSON.parse(JSON.stringify({ error: error.message, ...data })).code).toBe(-201);
  });

  it('answers every request with HTTP 200 and application/json, errors included', async () => {
    const answers = await Promise.all([
      rpcRaw(url, 'garbage'),
      rpcRaw(url, { jsonrpc: '2.0', method: 'x' }),
      rpcRaw(url, { jsonrpc: '2.0', id: 1, method: 'x.y' }),
      rpcRaw(url, { jsonrpc: '2.0', id: 1, method: 'chain.get_chain_id' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
});

describe('JSON-RPC address checks', () => {
  /** Methods whose request names an account directly (`account`, `address`, `payer`, `payee`), from the descriptors. */
  const accountMethods = () =>
    devnet.node.methods.flatMap((method) =>
      addressFieldPaths(requestType(method))
        .filter((path) => path.length === 1)
        .map((path) => ({ method, field: path[0]! })),
    );

  it('rejects an address with a wrong length, checksum or version in every method that takes one, naming the field', async () => {
    const methods = accountMethods();
    expect(methods.map((m) => m.method)).toEqual(
      expect.arrayContaining([
        'chain.get_account_rc',
        'chain.get_account_nonce',
        'account_history.get_account_history',
      ]),
    );
    for (const { method, field } of methods) {
      for (const { text, reason } of invalidAddresses(devnet.accounts[0]!.address)) {
        const error = await rpcError(url, method, { [field]: text, limit: '1' });
        expect(error.code, `${method} ${text}`).toBe(-32601);
        expect(error.message).toBe('Unable to translate request');
        expectAddressError(error.data, UNPARSEABLE, field, text, reason);
      }
    }
  });

  it('answers {"account":"notanaddress"} with an error instead of an empty account', async () => {
    const error = await rpcError(url, 'chain.get_account_rc', { account: 'notanaddress' });
    expect(error).toEqual({
      code: -32601,
      message: 'Unable to translate request',
      data: 'parameters could not be parsed: account: expected an address of 25 bytes, got 9',
    });
  });

  it('requires the account a request is about: a missing or empty one is an error, not an empty account', async () => {
    for (const { method, field } of accountMethods()) {
      for (const params of [{}, { [field]: '' }]) {
        const error = await rpcError(url, method, { ...params, limit: '1' });
        expect(error, `${method} ${JSON.stringify(params)}`).toEqual({
          code: -32601,
          message: 'Unable to translate request',
          data: `parameters could not be parsed: ${field}: expected a Koinos address (base58), got nothing`,
        });
      }
    }
  });

  it('checks addresses nested in a transaction and changes nothing when one is invalid', async () => {
    const sender = devnet.accounts[2]!.address;
    const nonceBefore = await rpc(url, 'chain.get_account_nonce', { account: sender });
    const tx = transferJson(devnet, 2, 4, KOIN, 1n) as any;
    for (const { text, reason } of invalidAddresses(sender)) {
      for (const field of ['payer', 'payee']) {
        const bad = { ...tx, header: { ...tx.header, [field]: text } };
        const error = await rpcError(url, 'chain.submit_transaction', { transaction: bad, broadcast: true });
        expect(error.code).toBe(-32601);
        expectAddressError(error.data, UNPARSEABLE, `transaction.header.${field}`, text, reason);
      }
    }
    expect(await rpc(url, 'chain.get_account_nonce', { account: sender })).toEqual(nonceBefore);
    expect((await rpc(url, 'mempool.get_pending_nonce', { payee: sender })).nonce ?? '').toBe('');
  });

  it("names the element of a repeated field on the path (a block's transactions)", async () => {
    const tx = transferJson(devnet, 2, 4, KOIN, 1n) as any;
    const bad = corruptAddress(devnet.accounts[2]!.address);
    const error = await rpcError(url, 'chain.submit_block', {
      block: {
        header: { signer: devnet.node.genesisAddress },
        transactions: [tx, { ...tx, header: { ...tx.header, payer: bad } }],
      },
    });
    expect(error.code).toBe(-32601);
    expectAddressError(error.data, UNPARSEABLE, 'block.transactions[1].header.payer', bad, /checksum does not match/);
  });

  it('checks the caller of invoke_system_call when one is given', async () => {
    const error = await rpcError(url, 'chain.invoke_system_call', {
      name: 'get_contract_address',
      args: '',
      caller_data: { caller: 'abc' },
    });
    expectAddressError(
      error.data,
      UNPARSEABLE,
      'caller_data.caller',
      'abc',
      /^expected an address of 25 bytes, got 3$/,
    );
  });

  it('accepts an empty payee, which a transaction may leave out', async () => {
    const tx = transferJson(devnet, 2, 4, KOIN, 1n) as any;
    const { receipt } = await rpc(url, 'chain.submit_transaction', {
      transaction: { ...tx, header: { ...tx.header, payee: '' } },
      broadcast: false,
    });
    expect(receipt.id).toBe(tx.id);
  });

  it('does not check contract ids, which need no checksum: the node answers for an unknown contract', async () => {
    const error = await rpcError(url, 'chain.read_contract', {
      contract_id: corruptAddress(devnet.koinAddress),
      entry_point: KOIN_METHODS.balance_of.entryPoint,
      args: '',
    });
    expectNodeRefusal(error);
  });
});

/** Methods with their success and error tests in test/devnet/httpDeveloperMethods.test.ts and httpServices.test.ts. */
const TESTED_ELSEWHERE = new Set<string>([...DEVELOPER_METHODS, 'contract_meta_store.get_contract_meta']);

describe('JSON-RPC methods', () => {
  it('offers every required method and has a test case for every method it offers', () => {
    const offered = new Set<string>(devnet.node.methods);
    for (const method of Object.keys(REQUIRED)) expect(offered.has(method), method).toBe(true);
    for (const method of offered) {
      expect(method in REQUIRED || method in OPTIONAL || TESTED_ELSEWHERE.has(method), `no test for ${method}`).toBe(
        true,
      );
    }
  });

  for (const [method, cases] of Object.entries(REQUIRED)) {
    it(`${method}: answers a valid request`, cases.success!);
    it(`${method}: reports a bad request with its error code`, cases.error);
  }

  // A method the devnet does not offer must be refused as unknown, as a real node without that microservice does.
  const refusedAsUnknown = async (method: string) => {
    expect((await rpcError(url, method, {})).data).toMatch(/unknown method|invalid service name provided/);
  };
  for (const [method, cases] of Object.entries(OPTIONAL)) {
    const success = cases.success;
    if (success) {
      it(`${method} (when offered): answers a valid request`, async () => {
        await (new Set<string>(devnet.node.methods).has(method) ? success() : refusedAsUnknown(method));
      });
    }
    it(`${method} (when offered): reports a bad request with its error code`, async () => {
      await (new Set<string>(devnet.node.methods).has(method) ? cases.error() : refusedAsUnknown(method));
    });
  }

  it('devnet.produce_block: produces a block with the pending transactions', PRODUCE_BLOCK.success);
  it('devnet.produce_block: reports unparseable params with -32601', PRODUCE_BLOCK.error);
});
