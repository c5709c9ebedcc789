// What each channel of the IPC contract does, over the vault and the chain services: account ids become addresses
// (and the vault the signer), the `settings:*` channels join the vault's settings and the chain's network selection
// (each kept by its one owner), and amounts leave as decimal strings. Arguments arrive already checked by ipc/argumentParsers.ts.
import { WalletError, causeText, describe } from '../koinos/errors.ts';
import type { AccountDiscovery, AccountInfo, Settings } from './vault/types.ts';
import type { BackupNetwork } from './vault/backupFile.ts';
import type {
  HistoryExportProgress,
  HistoryRecord,
  TransactionReview,
  TransferInput,
  TransferPayer,
} from './chain/types.ts';
import type { IpcHandlers } from '../ipc/dispatcher.ts';
import type { DashboardService } from './chain/dashboard.ts';
import type { EmbeddedDevnet } from './chain/embeddedDevnet.ts';
import type { HistoryService } from './chain/history.ts';
import { exportHistory } from './chain/historyExport.ts';
import { LOCAL_NETWORK_ID, type NetworkService } from './chain/networks.ts';
import type { PayerChoice } from './chain/payer.ts';
import type { NftService } from './chain/nfts.ts';
import type { NftTransferService } from './chain/nftTransfer.ts';
import type { AllowanceService } from './chain/allowances.ts';
import type { OfflineService } from './chain/offline.ts';
import type { SendService } from './chain/send.ts';
import type { TokenService } from './chain/tokens.ts';
import type { TransferRequest } from './chain/transferPlan.ts';
import type { ApprovalQueue } from './approvals/approvalQueue.ts';
import type { DappService } from './dapps/dappService.ts';
import type { WalletConnectBridge } from './dapps/walletConnect.ts';
import type { Notifier } from './notifications/notifier.ts';
import type { Vault } from './vault/vault.ts';
import type { AddressBook } from './addressBook.ts';
import type { HistoryNotes } from './historyNotes.ts';
import type { NameResolver } from './chain/names.ts';
import { lastUsedIndex, usedOn } from './chain/accountDiscovery.ts';

/** The services the channels use, built by createWalletApp(). */
export interface WalletServices {
  vault: Vault;
  devnet: EmbeddedDevnet;
  networks: NetworkService;
  tokens: TokenService;
  send: SendService;
  offline: OfflineService;
  history: HistoryService;
  dashboard: DashboardService;
  approvals: ApprovalQueue;
  notifier: Notifier;
  names: NameResolver;
  addressBook: AddressBook;
  historyNotes: HistoryNotes;
  /** Pushes `history:exportProgress`. */
  exportProgress: (progress: HistoryExportProgress) => void;
  /** Opens a kondor-js page in a wallet-owned window; only a shell that has windows gives it (Electron). */
  openDappPage?: (url: string) => void;
  nfts: NftService;
  nftTransfers: NftTransferService;
  allowances: AllowanceService;
  dapps: DappService;
  walletConnect: WalletConnectBridge;
  /** Receives log lines (never a secret). */
  log: (line: string) => void;
}

/**
 * The handler of every channel.
 * @example
 * const handlers = walletChannels(services);
 * await handlers['accounts:list'](); // [{ id, name, address, kind }, ...]
 */
export function walletChannels(s: WalletServices): IpcHandlers {
  const { vault, devnet, networks, tokens } = s;

  /** The account of an id, for its address. (Handlers that call it are async, so that its error is a rejection.) */
  function account(id: string): AccountInfo {
    const found = vault.listAccounts().find((a) => a.id === id);
    if (!found)
      throw new WalletError('ACCOUNT_NOT_FOUND', `expected an account of this wallet, got ${describe(id)}`, {
        metaMessages: ['Choose an account from the list.'],
      });
    return found;
  }

  function transfer(input: TransferInput): TransferRequest {
    return {
      from: account(input.fromAccountId).address,
      to: input.to,
      token: input.token,
      amount: input.amount,
      ...(input.rcLimit !== undefined ? { rcLimit: input.rcLimit } : {}),
      ...(input.payer !== undefined ? { payer: payerChoice(input.payer) } : {}),
      ...(input.memo ? { memo: input.memo } : {}),
    };
  }

  /** The payer the renderer names by account id, as the chain services take it (by address). */
  function payerChoice(payer: TransferPayer): PayerChoice {
    return payer.kind === 'account'
      ? { kind: 'account', address: account(payer.accountId).address }
      : { kind: 'freeMana' };
  }

  const connections = () => s.dapps.connections(s.walletConnect.status());

  const selectedNetworkId = async (): Promise<string> => (await networks.list()).selectedId;

  /** Reviews prepared and not yet confirmed: where they send, so that a submitted transfer is remembered by recipient. */
  const recipients = new Map<string, { networkId: string; to: string; name?: string }>();

  /**
   * What the review adds about the recipient: the typed name resolved again now (refused if it moved), the recipient's
   * names on the network, its contact label, and whether this wallet ever sent to it there. (An address that looks like
   * one the person knows is the review's risk flag, LOOKALIKE_RECIPIENT.)
   */
  async function withNames(input: TransferInput, review: TransactionReview): Promise<TransactionReview> {
    const { networkId } = review;
    const [names, contact, sentBefore] = await Promise.all([
      s.names.reverse(networkId, [input.to]),
      s.addressBook.contactOf(networkId, input.to),
      s.addressBook.hasSentTo(networkId, input.to),
    ]);
    const own = vault.listAccounts().some((a) => a.address === input.to);
    return {
      ...review,
      names,
      firstPayment: !sentBefore && !own,
      ...(contact ? { contactLabel: contact.label } : {}),
    };
  }

  /**
   * The phrase's next accounts that a network (the selected one unless named) saw used, added with every one before
   * the last used: the node is asked about the addresses only (derived in the vault, their keys zeroed), outside the
   * vault's lock.
   */
  async function discoverAccounts(phraseId: string, networkId?: string): Promise<AccountDiscovery> {
    const from = vault.phraseNextIndex(phraseId);
    const { network, node } = await networks.node(networkId);
    const { lastUsed, checkedThrough } = await lastUsedIndex(
      { addresses: (start, count) => vault.phraseAddresses({ phraseId, from: start, count }), used: usedOn(node) },
      from,
    );
    const added =
      lastUsed === undefined ? [] : await vault.addPhraseAccountsThrough({ phraseId, throughIndex: lastUsed });
    return { networkName: network.name, added, checkedFrom: from, checkedThrough };
  }

  /** The typed name, resolved again by main: the page's resolution is only what the user saw. */
  async function checkRecipientName(input: TransferInput) {
    if (input.recipientName === undefined) return undefined;
    const resolved = await s.names.resolve(await selectedNetworkId(), input.recipientName);
    if (resolved.address !== input.to) {
      throw new WalletError(
        'NAME_CHANGED',
        `${resolved.name} now points to ${resolved.address}, not to ${input.to}. Check the recipient again before sending.`,
      );
    }
    return resolved;
  }

  /** The vault keeps the settings; the network selection is the chain's, which knows which networks exist. */
  async function settings(): Promise<Settings> {
    return { ...vault.getSettings(), selectedNetworkId: await selectedNetworkId() };
  }

  /**
   * The custom networks of a backup in this wallet: each is the network here with its id or its JSON-RPC address, or is
   * added (without an API key: a backup has none). One that cannot be added (an address this wallet refuses) is left
   * out, and its contacts are skipped as on an unknown network. Returns the backup's ids mapped to this wallet's, how
   * many were added, and the ids of every network this wallet has now.
   */
  async function adoptNetworks(
    backupNetworks: readonly BackupNetwork[],
  ): Promise<{ ids: Map<string, string>; added: number; known: Set<string> }> {
    const ids = new Map<string, string>();
    let added = 0;
    // Read once (each read asks the keychain about every network's API key); an added network joins the list here.
    const here = (await networks.list()).networks;
    for (const network of backupNetworks) {
      const same = here.find((n) => n.id === network.id) ?? here.find((n) => n.jsonRpcUrl === network.jsonRpcUrl);
      if (same) {
        ids.set(network.id, same.id);
        continue;
      }
      try {
        const { name, jsonRpcUrl, restUrl } = network;
        const made = await networks.add({ name, jsonRpcUrl, ...(restUrl ? { restUrl } : {}) });
        here.push(made);
        ids.set(network.id, made.id);
        added++;
      } catch (error) {
        if (!(error instanceof WalletError) || error.code !== 'INVALID_ARGUMENT') throw error;
        s.log(`[backup] the backup's network ${JSON.stringify(network.name)} was not added: ${error.shortMessage}`);
      }
    }
    return { ids, added, known: new Set(here.map((n) => n.id)) };
  }

  /**
   * `settings:update`: the network selection goes to the chain settings, the rest to the vault. An unknown network is
   * refused before anything is written; the selection is written last, after the vault took its part.
   */
  async function updateSettings(patch: Partial<Settings>): Promise<Settings> {
    const { selectedNetworkId: networkId, ...vaultPatch } = patch;
    if (networkId !== undefined) await networks.get(networkId);
    await vault.updateSettings(vaultPatch);
    if (networkId !== undefined) await networks.select(networkId);
    return settings();
  }

  return {
    'vault:status': async () => vault.status(),
    'vault:create': (args) => vault.create(args),
    'vault:unlock': (args) => vault.unlock(args),
    'vault:lock': async () => vault.lock(),
    'vault:changePassword': (args) => vault.changePassword(args),
    'vault:exportBackup': async (args) => {
      const contacts = (await s.addressBook.allContacts()).map(({ label, address, networkId }) => ({
        label,
        address,
        networkId,
      }));
      // The custom networks go too, so that the contacts on them come back with them: names and addresses, not the
      // API keys.
      const custom = (await networks.list()).networks
        .filter((n) => n.kind === 'custom')
        .map(({ id, name, jsonRpcUrl, restUrl }) => ({ id, name, jsonRpcUrl, ...(restUrl ? { restUrl } : {}) }));
      const notes = await s.historyNotes.all();
      return vault.exportBackup(args, { contacts, networks: custom, notes });
    },
    'vault:importBackup': (args) =>
      vault.importBackup(args, {
        mergeContacts: async (contacts, backupNetworks, notes) => {
          try {
            const { ids, added, known } = await adoptNetworks(backupNetworks);
            const here = <T extends { networkId: string }>(item: T): T => ({
              ...item,
              networkId: ids.get(item.networkId) ?? item.networkId,
            });
            const notesAdded = notes.length > 0 ? await s.historyNotes.merge(notes.map(here), known) : 0;
            return {
              ...(await s.addressBook.mergeContacts(contacts.map(here), known)),
              ...(added > 0 ? { networksAdded: added } : {}),
              ...(notesAdded > 0 ? { notesAdded } : {}),
            };
          } catch (error) {
            // The import reports it as a warning (the accounts are in); the cause goes to the log.
            s.log(`[backup] the backup's contacts could not be merged: ${causeText(error)}`);
            throw error;
          }
        },
      }),

    'settings:get': settings,
    'settings:update': updateSettings,

    'accounts:list': async () => vault.listAccounts(),
    'accounts:newPhrase': (args) => vault.newPhrase(args),
    'accounts:confirmPhrase': (args) => vault.confirmPhrase(args),
    'accounts:importPhrase': (args) => vault.importPhrase(args),
    'accounts:importKey': (args) => vault.importKey(args),
    'accounts:addWatch': (args) => vault.addWatch(args),
    'accounts:deriveNext': (args) => vault.deriveNext(args),
    'accounts:discover': ({ phraseId, networkId }) => discoverAccounts(phraseId, networkId),
    'accounts:rename': (args) => vault.renameAccount(args),
    'accounts:reorder': (args) => vault.reorderAccounts(args),
    'accounts:remove': (args) => vault.removeAccount(args),
    'accounts:reveal': (args) => vault.reveal(args),

    'networks:list': () => networks.list(),
    'networks:select': ({ id }) => networks.select(id),
    'networks:add': (input) => networks.add(input),
    'networks:update': async ({ id, ...patch }) => {
      const current = await networks.get(id);
      if (current.kind !== 'custom') {
        // A network form sends every field back; of a built-in network only the API key can change, so the fields
        // it left as they were are not a change.
        if (patch.name === current.name) delete patch.name;
        if (patch.jsonRpcUrl === current.jsonRpcUrl) delete patch.jsonRpcUrl;
        if (patch.restUrl === (current.restUrl ?? '')) delete patch.restUrl;
      }
      return networks.update(id, patch);
    },
    'networks:remove': ({ id }) => networks.remove(id),
    'networks:head': ({ id }) => networks.head(id),

    'devnet:status': () => devnet.status(),
    'devnet:reset': async () => {
      const status = await devnet.reset();
      tokens.forgetSystemTokens(LOCAL_NETWORK_ID);
      return status;
    },
    'devnet:setShape': async ({ like }) => {
      const status = await devnet.setShape(like);
      tokens.forgetSystemTokens(LOCAL_NETWORK_ID); // KOIN and VHP now answer at the new shape's addresses
      return status;
    },
    'devnet:importAccount': async ({ index, watchOnly }) => {
      const dev = await devnet.developmentAccount(index);
      const name = `Devnet account ${index}`;
      return watchOnly
        ? vault.addWatch({ address: dev.address, name })
        : vault.importKey({ key: dev.wif, name }, { developmentOnly: true });
    },

    'tokens:list': async ({ networkId }) => tokens.list(networkId ?? (await selectedNetworkId())),
    'tokens:inspect': async ({ contract }) => tokens.inspect(await selectedNetworkId(), contract),
    'tokens:add': async ({ contract }) => tokens.add(await selectedNetworkId(), contract),
    'tokens:remove': async ({ contract }) => tokens.remove(await selectedNetworkId(), contract),

    'dashboard:get': async ({ accountId }) => s.dashboard.get({ accountId, address: account(accountId).address }),
    'history:page': async ({ accountId, ...query }) => {
      const page = await s.history.page({ ...query, address: account(accountId).address });
      const notes = await s.historyNotes.notesOf(
        page.networkId,
        page.records.map((r) => r.transactionId),
      );
      if (notes.size === 0) return page;
      const noted = (r: HistoryRecord) => {
        const note = r.transactionId === undefined ? undefined : notes.get(r.transactionId);
        return note === undefined ? r : { ...r, note };
      };
      return { ...page, records: page.records.map(noted) };
    },
    'history:setNote': async ({ networkId, transactionId, note }) => {
      await networks.get(networkId); // NOT_FOUND for a network this wallet does not have
      return { note: await s.historyNotes.set(networkId, transactionId, note) };
    },

    'send:maxAmount': async ({ fromAccountId, token, payer }) => {
      const from = account(fromAccountId).address;
      const max = await s.send.maxAmount(undefined, from, token, payer ? payerChoice(payer) : undefined);
      return {
        amount: max.amount.toString(),
        decimals: max.decimals,
        rcEstimate: max.rcEstimate.toString(),
        estimateSource: max.estimateSource,
      };
    },
    'send:prepare': async (input) => {
      const recipientName = await checkRecipientName(input);
      const review = await withNames(input, await s.send.prepare(transfer(input)));
      if (recipients.size > 100) recipients.clear(); // reviews expire after 10 minutes; a burst of unconfirmed ones is dropped
      recipients.set(review.reviewId, {
        networkId: review.networkId,
        to: input.to,
        ...(recipientName ? { name: recipientName.name } : {}),
      });
      return recipientName ? { ...review, recipientName } : review;
    },
    'send:confirm': async ({ reviewId }) => {
      const receipt = await s.send.confirm(reviewId);
      const sent = recipients.get(reviewId);
      recipients.delete(reviewId);
      // Sent: a recipient the address book fails to remember must not read as a failed send (it would be sent twice).
      if (sent)
        await s.addressBook
          .recordSent(sent.networkId, sent.to, sent.name)
          .catch((error: unknown) =>
            s.log(
              `[address book] ${receipt.transactionId} was sent, but its recipient was not remembered: ${causeText(error)}`,
            ),
          );
      return receipt;
    },

    'offline:exportUnsigned': async (input) => {
      await checkRecipientName(input); // the name typed for the export must still point where the export sends
      return s.offline.exportUnsigned(transfer(input));
    },
    'offline:inspect': ({ input }) => s.offline.inspect(input),
    'offline:sign': async ({ input, accountId }) => s.offline.sign(input, account(accountId).address),
    'offline:submit': ({ input, broadcast }) => s.offline.submit(input, broadcast),

    'approvals:list': async () => s.approvals.state(),
    'approvals:answer': (answer) => s.approvals.answer(answer),

    'networks:dismissChainIdChange': async ({ id }) => {
      await networks.dismissChainIdChange(id);
      return networks.get(id);
    },
    'notifications:get': async () => s.notifier.settings(),
    'notifications:update': (patch) => s.notifier.update(patch),
    'history:export': async ({ accountId, format, from, to, exportId }) => {
      const { address } = account(accountId);
      const accounts = vault.listAccounts();
      // Every page from the network selected now: a switch during a long export does not mix two chains in one file.
      const networkId = await selectedNetworkId();
      const notes = await s.historyNotes.notesOf(networkId);
      const { content, rows } = await exportHistory(s.history, {
        networkId,
        address,
        format,
        noteOf: (transactionId) => notes.get(transactionId),
        ...(from !== undefined ? { from: BigInt(from) } : {}),
        ...(to !== undefined ? { to: BigInt(to) } : {}),
        nameOf: (a) => accounts.find((x) => x.address === a)?.name,
        onProgress: (progress) => s.exportProgress({ exportId, ...progress }),
      });
      const day = new Date().toISOString().slice(0, 10);
      return { fileName: `koinos-history-${networkId}-${address}-${day}.${format}`, content, rows };
    },
    // One balance_of per account and nothing else (no head, no other tokens, no mana): the list stays quick with many.
    'accounts:koinBalances': async () => {
      const networkId = await selectedNetworkId();
      const koin = await tokens.resolve(networkId, 'koin');
      const balances = await Promise.all(
        vault.listAccounts().map(async (a) => ({
          accountId: a.id,
          balance: (await tokens.balanceOf(networkId, koin, a.address)).toString(),
        })),
      );
      return { token: koin, balances };
    },
    'nfts:collections': async ({ networkId }) => s.nfts.list(networkId ?? (await selectedNetworkId())),
    'nfts:inspectCollection': async ({ contract }) => s.nfts.inspect(await selectedNetworkId(), contract),
    'nfts:addCollection': async ({ contract }) => s.nfts.add(await selectedNetworkId(), contract),
    'nfts:removeCollection': async ({ contract }) => s.nfts.remove(await selectedNetworkId(), contract),
    'nfts:owned': async ({ accountId }) => s.nfts.owned(await selectedNetworkId(), account(accountId).address),
    'nfts:image': async ({ contract, tokenId }) => s.nfts.image(await selectedNetworkId(), contract, tokenId),
    'nfts:imageSettings': () => s.nfts.imageSettings(),
    'nfts:updateImageSettings': (patch) => s.nfts.updateImageSettings(patch),
    'nfts:prepareTransfer': async ({ fromAccountId, ...input }) =>
      s.nftTransfers.prepare({ ...input, from: account(fromAccountId).address }),
    'nfts:confirmTransfer': ({ reviewId }) => s.nftTransfers.confirm(reviewId),
    'allowances:list': ({ accountId }) => s.allowances.list({ owner: account(accountId).address }),
    'allowances:prepareRevoke': ({ accountId, items }) =>
      s.allowances.prepareRevoke({ items, from: account(accountId).address }),
    'allowances:confirmRevoke': ({ reviewId }) => s.allowances.confirmRevoke(reviewId),
    'names:resolve': async ({ text, networkId }) => s.names.resolve(networkId ?? (await selectedNetworkId()), text),
    'names:reverse': async ({ addresses, networkId }) =>
      s.names.reverse(networkId ?? (await selectedNetworkId()), addresses),
    'contacts:list': async ({ networkId }) => s.addressBook.view(networkId ?? (await selectedNetworkId())),
    'contacts:add': async ({ label, address, networkId }) =>
      s.addressBook.addContact({ label, address, networkId: networkId ?? (await selectedNetworkId()) }),
    'contacts:remove': ({ id }) => s.addressBook.removeContact(id),
    'dapps:list': async () => connections(),
    'dapps:pair': async ({ uri }) => {
      await s.walletConnect.pair(uri);
      return connections();
    },
    'dapps:revoke': async ({ origin }) => {
      await s.walletConnect.disconnect(origin);
      return connections();
    },
    'dapps:walletConnectSettings': async () => s.walletConnect.savedSettings(),
    'dapps:updateWalletConnectSettings': (patch) => s.walletConnect.updateSettings(patch),
    'dapps:openPage': async ({ url }) => {
      if (!s.openDappPage)
        throw new WalletError(
          'INVALID_ARGUMENT',
          'Only the desktop app opens dApp pages. Open the dApp in a browser and connect it with WalletConnect.',
        );
      s.openDappPage(url);
      return null;
    },
  };
}
