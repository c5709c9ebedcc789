// The /v1/token/{contract}/… routes of koinos-rest (app/v1/token/**/route.ts): reads of a KCS-4 token with amounts as
// koilib's formatUnits writes them ("999990.73"), and the transaction-preparing routes (transfer, mint, burn, approve)
// that answer the operation a client signs. As koinos-rest, they call the token through a fixed KCS-4 ABI (KOIN's).
import type { JsonObject, JsonValue } from '../../koinos/codec.ts';
import { WalletError, describe } from '../../koinos/errors.ts';
import { formatAmount, parseAmount } from '../../koinos/amounts.ts';
import { KOIN_ABI } from '../contracts/abi/systemAbis.ts';
import { standardContract, type StandardDeps } from './restStandard.ts';
import type { Route } from './restContracts.ts';

/** What the token routes need from the REST layer. */
export interface TokenRouteDeps extends StandardDeps {
  resolveAddress(text: string, what: 'account' | 'contract_id'): Promise<string>;
}

/** koinos-rest utils/validation.ts requireParameters: each named query parameter must be present. */
export function requireParameters(
  query: URLSearchParams,
  badRequest: (message: string) => WalletError,
  ...names: string[]
): void {
  for (const name of names) if (!query.has(name)) throw badRequest(`missing required field '${name}'`);
}

/**
 * The token routes, and `balance`: the one way the REST layer reads a token balance (`trim: false` gives the 8-digit
 * form node-api.md prescribes for /v1/account/{a}/balance/{c}).
 */
export function tokenRoutes(deps: TokenRouteDeps): {
  routes: Route[];
  balance(contract: string, account: string, options: { trim: boolean }): Promise<JsonValue>;
} {
  const { resolveAddress, badRequest } = deps;
  const kcs4 = standardContract(KOIN_ABI, deps);

  /** A result's `value`, or a 400 when the token answered nothing (koilib: `result!.value` of undefined). */
  function valueOf(result: JsonObject | undefined, name: string): JsonValue {
    if (!result) throw badRequest(`the token answered no result to ${name}`);
    return result.value ?? null;
  }

  async function decimals(id: string): Promise<number> {
    return Number(valueOf(await kcs4.read(id, 'decimals'), 'decimals'));
  }

  /** koilib formatUnits: trailing zeros and a bare "." dropped ("11000000", "999990.73"). */
  const units = (value: JsonValue | undefined, places: number, trim = true) =>
    formatAmount(BigInt(String(value ?? '0')), places, { trim });

  async function balance(contract: string, account: string, { trim }: { trim: boolean }): Promise<JsonValue> {
    const id = await resolveAddress(contract, 'contract_id');
    const owner = await resolveAddress(account, 'account');
    const result = await kcs4.read(id, 'balance_of', { owner });
    return { value: units(result?.value, await decimals(id), trim) };
  }

  /** A value in token units from the query ("1.5"), in base units as koilib parseUnits gives them. */
  function parseValue(text: string, places: number): string {
    try {
      return parseAmount(text, places).toString();
    } catch (e) {
      throw badRequest(`invalid value: ${e instanceof WalletError ? e.shortMessage : describe(text)}`);
    }
  }

  /** A memo only when given (koinos-rest passes null, which koilib leaves out). */
  const memo = (query: URLSearchParams): JsonObject => (query.get('memo') !== null ? { memo: query.get('memo')! } : {});

  const read = (name: 'name' | 'symbol' | 'decimals'): Route => ({
    method: 'GET',
    pattern: ['token', ':contract', name],
    run: async (p) => (await kcs4.read(await resolveAddress(p.contract!, 'contract_id'), name)) ?? {},
  });

  /**
   * A transaction-preparing route: `accounts` are query parameters read as addresses (in order, after the contract),
   * `value` in token units; the answer is koilib's encodeOperation of `method`.
   */
  const prepare = (method: 'transfer' | 'mint' | 'burn' | 'approve', accounts: string[]): Route => ({
    method: 'GET',
    pattern: ['token', ':contract', method],
    run: async (p, query) => {
      const id = await resolveAddress(p.contract!, 'contract_id');
      requireParameters(query, badRequest, ...accounts, 'value');
      const args: JsonObject = {};
      for (const name of accounts) args[name] = await resolveAddress(query.get(name)!, 'account');
      args.value = parseValue(query.get('value')!, await decimals(id));
      return kcs4.operation(id, method, { ...args, ...memo(query) });
    },
  });

  const routes: Route[] = [
    read('name'),
    read('symbol'),
    read('decimals'),
    {
      method: 'GET',
      pattern: ['token', ':contract', 'total_supply'],
      run: async (p) => {
        const id = await resolveAddress(p.contract!, 'contract_id');
        const supply = valueOf(await kcs4.read(id, 'total_supply'), 'total_supply');
        return { value: units(supply, await decimals(id)) };
      },
    },
    {
      method: 'GET',
      pattern: ['token', ':contract', 'info'],
      run: async (p) => {
        const id = await resolveAddress(p.contract!, 'contract_id');
        // get_info is optional in KCS-4: without it, name, symbol and decimals one by one (as koinos-rest falls back).
        const info = await kcs4.read(id, 'get_info').catch(() => undefined);
        const supply = valueOf(await kcs4.read(id, 'total_supply'), 'total_supply');
        if (info)
          return {
            name: info.name!,
            symbol: info.symbol!,
            decimals: info.decimals!,
            total_supply: units(supply, Number(info.decimals)),
          };
        const places = await decimals(id);
        return {
          name: valueOf(await kcs4.read(id, 'name'), 'name'),
          symbol: valueOf(await kcs4.read(id, 'symbol'), 'symbol'),
          decimals: places,
          total_supply: units(supply, places),
        };
      },
    },
    {
      method: 'GET',
      pattern: ['token', ':contract', 'balance', ':account'],
      run: (p) => balance(p.contract!, p.account!, { trim: true }),
    },
    {
      method: 'GET',
      pattern: ['token', ':contract', 'allowance', ':account', ':spender'],
      run: async (p) => {
        const id = await resolveAddress(p.contract!, 'contract_id');
        const owner = await resolveAddress(p.account!, 'account');
        const spender = await resolveAddress(p.spender!, 'account');
        const result = await kcs4.read(id, 'allowance', { owner, spender });
        return { value: units(result?.value, await decimals(id)) };
      },
    },
    {
      method: 'GET',
      pattern: ['token', ':contract', 'allowances', ':account'],
      run: async (p, query) => {
        const id = await resolveAddress(p.contract!, 'contract_id');
        const owner = await resolveAddress(p.account!, 'account');
        requireParameters(query, badRequest, 'limit');
        const limit = query.get('limit')!;
        if (!/^\d{1,9}$/.test(limit))
          throw badRequest(`invalid limit: expected a whole number, got ${describe(limit)}`);
        const start = query.get('start');
        const args: JsonObject = {
          owner,
          limit: Number(limit),
          ...(start && { start: await resolveAddress(start, 'account') }),
        };
        const result = await kcs4.read(id, 'get_allowances', args);
        const places = await decimals(id);
        // koinos-rest: the result with its owner and formatted values, or {owner} alone when the token answered none.
        const allowances = result?.allowances as JsonObject[] | undefined;
        if (!allowances) return { owner };
        return { ...result, owner, allowances: allowances.map((a) => ({ ...a, value: units(a.value, places) })) };
      },
    },
    prepare('transfer', ['from', 'to']),
    prepare('mint', ['to']),
    prepare('burn', ['from']),
    prepare('approve', ['owner', 'spender']),
  ];
  return { routes, balance };
}
