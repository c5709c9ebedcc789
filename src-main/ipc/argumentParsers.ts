// The run-time check of every channel's arguments (the renderer is untrusted input): one parser per channel, in a
// table the compiler ties to the contract, each returning the arguments typed or throwing INVALID_ARGUMENT.
import type {
  ApprovalAnswer,
  HistoryExportQuery,
  HistoryQuery,
  IpcArgs,
  IpcChannel,
  NetworkInput,
  NftImageSettings,
  RiskCode,
  Settings,
  TransferInput,
  TransferPayer,
  WalletConnectSettings,
} from './contract.ts';
import {
  readArgumentList,
  readArray,
  readBoolean,
  readChoice,
  readDecimalString,
  readHttpUrl,
  readInteger,
  readObject,
  readString,
  readUintString,
  type ArgumentPath,
  type StringRule,
} from './argumentReaders.ts';

/** Checks one channel's raw argument list and returns it typed. */
export type ArgumentParser<C extends IpcChannel> = (args: unknown) => IpcArgs<C>;

// ---- Field rules: one place that says how long and of what form each kind of value may be ----------------------

/** Ids the wallet hands out (accounts, phrases, networks, drafts, reviews): short, no spaces or markup. */
const ID: StringRule = {
  max: 100,
  pattern: { regex: /^[A-Za-z0-9._:-]{1,100}$/, means: 'an id (letters, digits, ". _ : -")' },
};
/** A name the user gives an account or a network. */
const NAME: StringRule = { max: 100 };
const PASSWORD: StringRule = { max: 1024, secret: true };
/** A BIP39 phrase of up to 24 words (the longest English word has 8 letters), with generous room for spacing. */
const PHRASE: StringRule = { max: 1000, secret: true };
/** A WIF (51-52 characters) or 64 hex digits, with or without 0x, plus surrounding whitespace a paste may bring. */
const PRIVATE_KEY: StringRule = { max: 200, secret: true };
const API_KEY: StringRule = { max: 1024, secret: true };
/** A base58 address (25 bytes: at most 35 characters); its checksum is checked by the one address reader. */
const ADDRESS: StringRule = {
  max: 40,
  pattern: {
    regex: /^[1-9A-HJ-NP-Za-km-z]{20,40}$/,
    means: 'a base58 address such as "1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs"',
  },
};
/** A token: `koin`, `vhp` or a contract address. */
const TOKEN: StringRule = {
  max: 40,
  pattern: { regex: /^(koin|vhp|[1-9A-HJ-NP-Za-km-z]{20,40})$/, means: '"koin", "vhp" or a token contract address' },
};
/** What a recipient field holds when it is a name: `@nickname` or `alice.koin` (recipientName.ts reads it). */
const RECIPIENT_NAME: StringRule = { max: 80 };
/** A contact's label. */
const LABEL: StringRule = { max: 100 };
/** A transaction id: 0x1220 and the 64 hex digits of its SHA-256. */
const TRANSACTION_ID: StringRule = {
  max: 70,
  pattern: { regex: /^0x1220[0-9a-f]{64}$/, means: 'a transaction id (0x1220 and 64 hex digits)' },
};
/** A note on a transaction, as typed (historyNotes.ts keeps one line of it). */
const NOTE: StringRule = { max: 1000 };
/** A transfer's memo: 256 characters at most (memo.ts checks them), 4 UTF-16 units each at most. */
const MEMO: StringRule = { max: 1024 };
/** Addresses whose names one call asks for (a history page shows at most a few dozen). */
const MAX_REVERSE_ADDRESSES = 200;
/** One BIP39 word typed back. */
const WORD: StringRule = { max: 20 };
/** A backup file's text. Backups hold a few KB per account; 4 MB is far above any real wallet. */
const BACKUP_CONTENT: StringRule = { max: 4 * 1024 * 1024 };
/** A transaction as base64 or JSON, pasted or read from a file. Real transactions are a few KB; the node caps at 512 KB. */
const TRANSACTION_INPUT: StringRule = { max: 1024 * 1024 };

/** An NFT token id: "0x" and up to 128 bytes of hex (nfts.ts MAX_TOKEN_ID_BYTES). */
const TOKEN_ID: StringRule = {
  max: 258,
  pattern: { regex: /^0x([0-9a-fA-F]{2}){1,128}$/, means: 'an NFT token id such as "0x01" ("0x" and hex digits)' },
};

/** Every risk flag's code, for the acknowledgements of a flagged approval. A record: the compiler sees a new code. */
const RISK_CODES: Record<RiskCode, true> = {
  UPLOAD_CONTRACT: true,
  REPLACES_ACCOUNT: true,
  SET_SYSTEM_CALL: true,
  SET_SYSTEM_CONTRACT: true,
  NO_ABI: true,
  SELF_TRANSFER: true,
  LOOKALIKE_RECIPIENT: true,
  TOKEN_ALLOWANCE: true,
  NFT_ALLOWANCE: true,
  UNKNOWN_CONTRACT: true,
  CHAIN_ID_CHANGED: true,
  OTHER_CHAIN: true,
};

/** A `wc:` pairing URI (about 200 characters), bare or inside a `koinos-wallet://wc?uri=` link, percent-encoded. */
const WC_URI: StringRule = {
  max: 2048,
  pattern: {
    regex: /^(wc:|koinos-wallet:\/\/wc\?)\S+$/,
    means: 'a WalletConnect URI ("wc:…") or a "koinos-wallet://wc?uri=…" link',
  },
};
/** A dApp's origin (scheme, host, port), as a grant names it. */
const ORIGIN: StringRule = {
  max: 300,
  pattern: { regex: /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/, means: 'an origin such as "https://app.example"' },
};
/** A WalletConnect relay: a ws:// or wss:// URL, or '' for the public relay. */
const RELAY_URL: StringRule = {
  max: 2048,
  pattern: {
    regex: /^(wss?:\/\/[^\s@]+)?$/,
    means: 'a ws:// or wss:// URL without a user name or password, or nothing',
  },
};
/** A WalletConnect Cloud project ID (32 hex digits), or '' for none; any id of letters and digits for private relays. */
/** A dApp page to open: an http(s) URL (the shell checks further: https, or http on loopback). */
const PAGE_URL: StringRule = { max: 2048, pattern: { regex: /^https?:\/\/[^\s]+$/, means: 'an https:// address' } };
const PROJECT_ID: StringRule = {
  max: 100,
  pattern: { regex: /^[A-Za-z0-9_-]{0,100}$/, means: 'a project ID (letters, digits, "_", "-")' },
};

const MAX_ACCOUNTS = 10_000;
/** Allowances taken back in one transaction (allowances.ts MAX_REVOKES). */
const MAX_REVOKES = 20;
const MAX_HISTORY_PAGE = 500;
/** The devnet publishes at most this many development accounts. */
const MAX_DEV_ACCOUNTS = 1000;
/** A week; longer is "never" in practice and a number this large still fits a timer. */
const MAX_AUTO_LOCK_MINUTES = 7 * 24 * 60;

// ---- Helpers -----------------------------------------------------------------------------------------------------

/** One field of the argument object: where it is, its raw value, and whether it was given. */
interface Field {
  path: ArgumentPath;
  value: unknown;
  present: boolean;
}

const at = (channel: string, field: string): ArgumentPath => ({ channel, field });

/** Parser of a channel without arguments. */
function none(channel: IpcChannel): (args: unknown) => [] {
  return (args) => {
    readArgumentList(channel, args, 0);
    return [];
  };
}

/** Parser of a channel whose one argument is an object with exactly the `fields` read by `read`. */
function one<T>(
  channel: IpcChannel,
  fields: readonly string[],
  read: (field: (name: string) => Field) => T,
): (args: unknown) => [T] {
  return (args) => {
    const [raw] = readArgumentList(channel, args, 1);
    const object = readObject(at(channel, 'the argument'), raw, fields);
    return [read((name) => ({ path: at(channel, name), value: object[name], present: Object.hasOwn(object, name) }))];
  };
}

const str = (f: Field, rule: StringRule): string => readString(f.path, f.value, rule);
const optional = <T>(f: Field, read: (f: Field) => T): T | undefined => (f.present ? read(f) : undefined);

/** Drops keys whose value is undefined, so that optional fields are absent rather than present-and-undefined. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** `{ kind: 'account', accountId }` or `{ kind: 'freeMana' }`, nothing else. */
function readTransferPayer(f: Field): TransferPayer {
  const object = readObject(f.path, f.value, ['kind', 'accountId']);
  const path = (name: string): ArgumentPath => ({ channel: f.path.channel, field: `${f.path.field}.${name}` });
  const kind = readChoice(path('kind'), object.kind, ['account', 'freeMana'] as const);
  if (kind === 'freeMana') {
    readObject(f.path, object, ['kind']); // an accountId beside freeMana is a confused request: refused, not ignored
    return { kind };
  }
  return { kind, accountId: readString(path('accountId'), object.accountId, ID) };
}

function readTransferInput(channel: IpcChannel): (args: unknown) => [TransferInput] {
  return one(channel, ['fromAccountId', 'to', 'token', 'amount', 'rcLimit', 'payer', 'recipientName', 'memo'], (f) =>
    compact({
      fromAccountId: str(f('fromAccountId'), ID),
      to: str(f('to'), ADDRESS),
      token: str(f('token'), TOKEN),
      amount: readDecimalString(f('amount').path, f('amount').value),
      rcLimit: optional(f('rcLimit'), (x) => readUintString(x.path, x.value)),
      payer: optional(f('payer'), readTransferPayer),
      recipientName: optional(f('recipientName'), (x) => str(x, RECIPIENT_NAME)),
      memo: optional(f('memo'), (x) => str(x, MEMO)),
    }),
  );
}

function readApiKey(f: Field): string | null {
  return f.value === null ? null : str(f, API_KEY);
}

// ---- The table ---------------------------------------------------------------------------------------------------

/** One parser per channel; a missing or misspelled channel is a compile error. */
export const ARGUMENT_PARSERS: { [C in IpcChannel]: ArgumentParser<C> } = {
  'vault:status': none('vault:status'),
  'vault:create': one('vault:create', ['password'], (f) => ({ password: str(f('password'), PASSWORD) })),
  'vault:unlock': one('vault:unlock', ['password'], (f) => ({ password: str(f('password'), PASSWORD) })),
  'vault:lock': none('vault:lock'),
  'vault:changePassword': one('vault:changePassword', ['oldPassword', 'newPassword'], (f) => ({
    oldPassword: str(f('oldPassword'), PASSWORD),
    newPassword: str(f('newPassword'), PASSWORD),
  })),
  'vault:exportBackup': one('vault:exportBackup', ['password', 'backupPassword'], (f) => ({
    password: str(f('password'), PASSWORD),
    backupPassword: str(f('backupPassword'), PASSWORD),
  })),
  'vault:importBackup': one('vault:importBackup', ['content', 'backupPassword'], (f) => ({
    content: str(f('content'), BACKUP_CONTENT),
    backupPassword: str(f('backupPassword'), PASSWORD),
  })),

  'settings:get': none('settings:get'),
  'settings:update': one(
    'settings:update',
    ['autoLockMinutes', 'theme', 'selectedAccountId', 'selectedNetworkId'],
    (f) =>
      compact<Partial<Settings>>({
        autoLockMinutes: optional(f('autoLockMinutes'), (x) => readInteger(x.path, x.value, 1, MAX_AUTO_LOCK_MINUTES)),
        theme: optional(f('theme'), (x) => readChoice(x.path, x.value, ['system', 'light', 'dark'] as const)),
        selectedAccountId: optional(f('selectedAccountId'), (x) => str(x, ID)),
        selectedNetworkId: optional(f('selectedNetworkId'), (x) => str(x, ID)),
      }),
  ),

  'accounts:list': none('accounts:list'),
  'accounts:newPhrase': one('accounts:newPhrase', ['words'], (f) => ({
    words: readChoice(f('words').path, f('words').value, [12, 24] as const),
  })),
  'accounts:confirmPhrase': one('accounts:confirmPhrase', ['draftId', 'name', 'checks'], (f) => ({
    draftId: str(f('draftId'), ID),
    name: str(f('name'), NAME),
    checks: readArray(f('checks').path, f('checks').value, 24, (path, value) => {
      const check = readObject(path, value, ['position', 'word']);
      return {
        position: readInteger({ ...path, field: `${path.field}.position` }, check['position'], 1, 24),
        // A word typed back is part of the phrase: never echoed.
        word: readString({ ...path, field: `${path.field}.word` }, check['word'], { ...WORD, secret: true }),
      };
    }),
  })),
  'accounts:importPhrase': one('accounts:importPhrase', ['phrase', 'name'], (f) => ({
    phrase: str(f('phrase'), PHRASE),
    name: str(f('name'), NAME),
  })),
  'accounts:importKey': one('accounts:importKey', ['key', 'name'], (f) => ({
    key: str(f('key'), PRIVATE_KEY),
    name: str(f('name'), NAME),
  })),
  'accounts:addWatch': one('accounts:addWatch', ['address', 'name'], (f) => ({
    address: str(f('address'), ADDRESS),
    name: str(f('name'), NAME),
  })),
  'accounts:deriveNext': one('accounts:deriveNext', ['phraseId', 'name'], (f) => ({
    phraseId: str(f('phraseId'), ID),
    name: str(f('name'), NAME),
  })),
  'accounts:discover': one('accounts:discover', ['phraseId', 'networkId'], (f) =>
    compact({ phraseId: str(f('phraseId'), ID), networkId: optional(f('networkId'), (x) => str(x, ID)) }),
  ),
  'accounts:rename': one('accounts:rename', ['id', 'name'], (f) => ({
    id: str(f('id'), ID),
    name: str(f('name'), NAME),
  })),
  'accounts:reorder': one('accounts:reorder', ['ids'], (f) => ({
    ids: readArray(f('ids').path, f('ids').value, MAX_ACCOUNTS, (path, value) => readString(path, value, ID)),
  })),
  'accounts:remove': one('accounts:remove', ['id', 'password'], (f) => ({
    id: str(f('id'), ID),
    password: str(f('password'), PASSWORD),
  })),
  'accounts:reveal': one('accounts:reveal', ['id', 'password'], (f) => ({
    id: str(f('id'), ID),
    password: str(f('password'), PASSWORD),
  })),

  'networks:list': none('networks:list'),
  'networks:select': one('networks:select', ['id'], (f) => ({ id: str(f('id'), ID) })),
  'networks:add': one('networks:add', ['name', 'jsonRpcUrl', 'restUrl', 'apiKey'], (f) =>
    compact<NetworkInput>({
      name: str(f('name'), NAME),
      jsonRpcUrl: readHttpUrl(f('jsonRpcUrl').path, f('jsonRpcUrl').value),
      restUrl: optional(f('restUrl'), (x) => readHttpUrl(x.path, x.value)),
      apiKey: optional(f('apiKey'), readApiKey),
    }),
  ),
  'networks:update': one('networks:update', ['id', 'name', 'jsonRpcUrl', 'restUrl', 'apiKey'], (f) =>
    compact<{ id: string } & Partial<NetworkInput>>({
      id: str(f('id'), ID),
      name: optional(f('name'), (x) => str(x, NAME)),
      jsonRpcUrl: optional(f('jsonRpcUrl'), (x) => readHttpUrl(x.path, x.value)),
      // An empty REST URL removes the stored one (absent keeps it).
      restUrl: optional(f('restUrl'), (x) => (x.value === '' ? '' : readHttpUrl(x.path, x.value))),
      apiKey: optional(f('apiKey'), readApiKey),
    }),
  ),
  'networks:remove': one('networks:remove', ['id'], (f) => ({ id: str(f('id'), ID) })),
  'networks:head': one('networks:head', ['id'], (f) => compact({ id: optional(f('id'), (x) => str(x, ID)) })),

  'devnet:status': none('devnet:status'),
  'devnet:reset': none('devnet:reset'),
  'devnet:importAccount': one('devnet:importAccount', ['index', 'watchOnly'], (f) => ({
    index: readInteger(f('index').path, f('index').value, 0, MAX_DEV_ACCOUNTS - 1),
    watchOnly: readBoolean(f('watchOnly').path, f('watchOnly').value),
  })),
  'devnet:setShape': one('devnet:setShape', ['like'], (f) => ({
    like: readChoice(f('like').path, f('like').value, ['plain', 'mainnet', 'harbinger'] as const),
  })),

  'tokens:list': one('tokens:list', ['networkId'], (f) =>
    compact({ networkId: optional(f('networkId'), (x) => str(x, ID)) }),
  ),
  'tokens:inspect': one('tokens:inspect', ['contract'], (f) => ({ contract: str(f('contract'), ADDRESS) })),
  'tokens:add': one('tokens:add', ['contract'], (f) => ({ contract: str(f('contract'), ADDRESS) })),
  'tokens:remove': one('tokens:remove', ['contract'], (f) => ({ contract: str(f('contract'), ADDRESS) })),

  'dashboard:get': one('dashboard:get', ['accountId'], (f) => ({ accountId: str(f('accountId'), ID) })),
  'history:page': one('history:page', ['accountId', 'limit', 'seqNum', 'ascending', 'irreversibleOnly'], (f) =>
    compact<HistoryQuery>({
      accountId: str(f('accountId'), ID),
      limit: readInteger(f('limit').path, f('limit').value, 1, MAX_HISTORY_PAGE),
      seqNum: optional(f('seqNum'), (x) => readUintString(x.path, x.value)),
      ascending: readBoolean(f('ascending').path, f('ascending').value),
      irreversibleOnly: readBoolean(f('irreversibleOnly').path, f('irreversibleOnly').value),
    }),
  ),
  'history:setNote': one('history:setNote', ['networkId', 'transactionId', 'note'], (f) => ({
    networkId: str(f('networkId'), ID),
    transactionId: str(f('transactionId'), TRANSACTION_ID),
    note: str(f('note'), NOTE),
  })),

  'send:maxAmount': one('send:maxAmount', ['fromAccountId', 'token', 'payer'], (f) => ({
    fromAccountId: str(f('fromAccountId'), ID),
    token: str(f('token'), TOKEN),
    payer: optional(f('payer'), readTransferPayer),
  })),
  'send:prepare': readTransferInput('send:prepare'),
  'send:confirm': one('send:confirm', ['reviewId'], (f) => ({ reviewId: str(f('reviewId'), ID) })),

  'offline:exportUnsigned': readTransferInput('offline:exportUnsigned'),
  'offline:inspect': one('offline:inspect', ['input'], (f) => ({ input: str(f('input'), TRANSACTION_INPUT) })),
  'offline:sign': one('offline:sign', ['input', 'accountId'], (f) => ({
    input: str(f('input'), TRANSACTION_INPUT),
    accountId: str(f('accountId'), ID),
  })),
  'offline:submit': one('offline:submit', ['input', 'broadcast'], (f) => ({
    input: str(f('input'), TRANSACTION_INPUT),
    broadcast: readBoolean(f('broadcast').path, f('broadcast').value),
  })),

  'approvals:list': none('approvals:list'),
  'approvals:answer': one(
    'approvals:answer',
    ['requestId', 'approve', 'password', 'acknowledgedRisks', 'accounts'],
    (f) =>
      compact<ApprovalAnswer>({
        requestId: str(f('requestId'), ID),
        approve: readBoolean(f('approve').path, f('approve').value),
        password: optional(f('password'), (x) => str(x, PASSWORD)),
        acknowledgedRisks: optional(f('acknowledgedRisks'), (x) =>
          readArray(x.path, x.value, Object.keys(RISK_CODES).length, (path, v) =>
            readChoice(path, v, Object.keys(RISK_CODES) as RiskCode[]),
          ),
        ),
        accounts: optional(f('accounts'), (x) =>
          readArray(x.path, x.value, MAX_ACCOUNTS, (path, v) => readString(path, v, ADDRESS)),
        ),
      }),
  ),

  'networks:dismissChainIdChange': one('networks:dismissChainIdChange', ['id'], (f) => ({ id: str(f('id'), ID) })),
  'notifications:get': none('notifications:get'),
  'notifications:update': one('notifications:update', ['enabled'], (f) => ({
    enabled: readBoolean(f('enabled').path, f('enabled').value),
  })),
  'history:export': one('history:export', ['accountId', 'format', 'from', 'to', 'exportId'], (f) =>
    compact<HistoryExportQuery>({
      accountId: str(f('accountId'), ID),
      format: readChoice(f('format').path, f('format').value, ['csv', 'json'] as const),
      from: optional(f('from'), (x) => readUintString(x.path, x.value)),
      to: optional(f('to'), (x) => readUintString(x.path, x.value)),
      exportId: str(f('exportId'), ID),
    }),
  ),
  'accounts:koinBalances': none('accounts:koinBalances'),
  'nfts:collections': one('nfts:collections', ['networkId'], (f) =>
    compact({ networkId: optional(f('networkId'), (x) => str(x, ID)) }),
  ),
  'nfts:inspectCollection': one('nfts:inspectCollection', ['contract'], (f) => ({
    contract: str(f('contract'), ADDRESS),
  })),
  'nfts:addCollection': one('nfts:addCollection', ['contract'], (f) => ({ contract: str(f('contract'), ADDRESS) })),
  'nfts:removeCollection': one('nfts:removeCollection', ['contract'], (f) => ({
    contract: str(f('contract'), ADDRESS),
  })),
  'nfts:owned': one('nfts:owned', ['accountId'], (f) => ({ accountId: str(f('accountId'), ID) })),
  'nfts:image': one('nfts:image', ['contract', 'tokenId'], (f) => ({
    contract: str(f('contract'), ADDRESS),
    tokenId: str(f('tokenId'), TOKEN_ID),
  })),
  'nfts:imageSettings': none('nfts:imageSettings'),
  'nfts:updateImageSettings': one('nfts:updateImageSettings', ['enabled', 'ipfsGateway'], (f) =>
    compact<Partial<NftImageSettings>>({
      enabled: optional(f('enabled'), (x) => readBoolean(x.path, x.value)),
      ipfsGateway: optional(f('ipfsGateway'), (x) => readHttpUrl(x.path, x.value)),
    }),
  ),
  'nfts:prepareTransfer': one('nfts:prepareTransfer', ['fromAccountId', 'contract', 'tokenId', 'to'], (f) => ({
    fromAccountId: str(f('fromAccountId'), ID),
    contract: str(f('contract'), ADDRESS),
    tokenId: str(f('tokenId'), TOKEN_ID),
    to: str(f('to'), ADDRESS),
  })),
  'nfts:confirmTransfer': one('nfts:confirmTransfer', ['reviewId'], (f) => ({ reviewId: str(f('reviewId'), ID) })),
  'allowances:list': one('allowances:list', ['accountId'], (f) => ({ accountId: str(f('accountId'), ID) })),
  'allowances:prepareRevoke': one('allowances:prepareRevoke', ['accountId', 'items'], (f) => ({
    accountId: str(f('accountId'), ID),
    items: readArray(f('items').path, f('items').value, MAX_REVOKES, (path, value) => {
      const item = readObject(path, value, ['kind', 'contract', 'spender', 'tokenId']);
      const of = (name: string): ArgumentPath => ({ channel: path.channel, field: `${path.field}.${name}` });
      return compact({
        kind: readChoice(of('kind'), item.kind, ['token', 'nft-operator', 'nft-token'] as const),
        contract: readString(of('contract'), item.contract, ADDRESS),
        spender: readString(of('spender'), item.spender, ADDRESS),
        tokenId: item.tokenId === undefined ? undefined : readString(of('tokenId'), item.tokenId, TOKEN_ID),
      });
    }),
  })),
  'allowances:confirmRevoke': one('allowances:confirmRevoke', ['reviewId'], (f) => ({
    reviewId: str(f('reviewId'), ID),
  })),
  'names:resolve': one('names:resolve', ['text', 'networkId'], (f) =>
    compact({ text: str(f('text'), RECIPIENT_NAME), networkId: optional(f('networkId'), (x) => str(x, ID)) }),
  ),
  'names:reverse': one('names:reverse', ['addresses', 'networkId'], (f) =>
    compact({
      addresses: readArray(f('addresses').path, f('addresses').value, MAX_REVERSE_ADDRESSES, (path, value) =>
        readString(path, value, ADDRESS),
      ),
      networkId: optional(f('networkId'), (x) => str(x, ID)),
    }),
  ),
  'contacts:list': one('contacts:list', ['networkId'], (f) =>
    compact({ networkId: optional(f('networkId'), (x) => str(x, ID)) }),
  ),
  'contacts:add': one('contacts:add', ['label', 'address', 'networkId'], (f) =>
    compact({
      label: str(f('label'), LABEL),
      address: str(f('address'), ADDRESS),
      networkId: optional(f('networkId'), (x) => str(x, ID)),
    }),
  ),
  'contacts:remove': one('contacts:remove', ['id'], (f) => ({ id: str(f('id'), ID) })),
  'dapps:list': none('dapps:list'),
  'dapps:pair': one('dapps:pair', ['uri'], (f) => ({ uri: str(f('uri'), WC_URI).trim() })),
  'dapps:revoke': one('dapps:revoke', ['origin'], (f) => ({ origin: str(f('origin'), ORIGIN) })),
  'dapps:walletConnectSettings': none('dapps:walletConnectSettings'),
  'dapps:updateWalletConnectSettings': one('dapps:updateWalletConnectSettings', ['relayUrl', 'projectId'], (f) =>
    compact<Partial<WalletConnectSettings>>({
      relayUrl: optional(f('relayUrl'), (x) => str(x, RELAY_URL)),
      projectId: optional(f('projectId'), (x) => str(x, PROJECT_ID)),
    }),
  ),
  'dapps:openPage': one('dapps:openPage', ['url'], (f) => ({ url: str(f('url'), PAGE_URL) })),
};

/**
 * Checks the raw arguments of `channel` and returns them typed.
 * @throws WalletError INVALID_ARGUMENT saying which field was wrong, what was expected and what was found.
 * @example
 * parseArguments('accounts:rename', [{ id: 'a1', name: 'Savings' }]); // [{ id: 'a1', name: 'Savings' }]
 * parseArguments('accounts:rename', [{ id: 'a1' }]); // throws 'accounts:rename: expected name to be a string of 1 to 100 characters, got nothing'
 */
export function parseArguments<C extends IpcChannel>(channel: C, args: unknown): IpcArgs<C> {
  return (ARGUMENT_PARSERS[channel] as ArgumentParser<C>)(args);
}
