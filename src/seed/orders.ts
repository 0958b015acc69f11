import { pbkdf2Sync } from 'node:crypto';
import { domainSeparator, type Hex } from 'viem';
import { HDKey, hdKeyToAccount, type HDAccount } from 'viem/accounts';
import type { Keccak } from './keccak.js';
import { seaportDomain, type OfferItem, type OrderComponents, type SeaportDomainConfig } from '../lib/seaport.js';

/** The standard test mnemonic whose first ten accounts own the demo data. */
export const DEMO_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * The first `count` accounts of the test mnemonic. The BIP-39 seed is computed once (PBKDF2,
 * as @scure/bip39 does for an ASCII mnemonic) and the keys derived from it, instead of running
 * `mnemonicToAccount` (which repeats the PBKDF2) per account.
 */
export function demoAccounts(count = 10): HDAccount[] {
  const seed = pbkdf2Sync(DEMO_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  const root = HDKey.fromMasterSeed(seed);
  return Array.from({ length: count }, (_, i) => hdKeyToAccount(root, { addressIndex: i }));
}

const OFFER_ITEM = 'OfferItem(uint8 itemType,address token,uint256 identifierOrCriteria,uint256 startAmount,uint256 endAmount)';
const CONSIDERATION_ITEM = 'ConsiderationItem(uint8 itemType,address token,uint256 identifierOrCriteria,uint256 startAmount,uint256 endAmount,address recipient)';
const ORDER_COMPONENTS = 'OrderComponents(address offerer,address zone,OfferItem[] offer,ConsiderationItem[] consideration,uint8 orderType,uint256 startTime,uint256 endTime,bytes32 zoneHash,uint256 salt,bytes32 conduitKey,uint256 counter)';

/**
 * Writes one 32-byte ABI word at `offset`: a `0x` hex value right-aligned, or a decimal number
 * (string or number) as big-endian unsigned.
 */
function writeWord(buf: Buffer, offset: number, value: string | number): void {
  buf.fill(0, offset, offset + 32);
  if (typeof value === 'number' || value.length <= 15) {
    const n = typeof value === 'number' ? value : value.startsWith('0x') ? Number.parseInt(value, 16) : Number(value);
    if (Number.isSafeInteger(n) && n >= 0) {
      buf.writeUIntBE(Math.floor(n / 2 ** 24), offset + 25, 4);
      buf.writeUIntBE(n % 2 ** 24, offset + 29, 3);
      return;
    }
  }
  let hex = typeof value === 'string' && value.startsWith('0x') ? value.slice(2) : BigInt(value).toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  buf.write(hex, offset + 32 - hex.length / 2, 'hex');
}

/**
 * Seaport's order hash, the EIP-712 struct hash of the order components: the same value as
 * `orderHash` of src/lib/seaport.ts (a test checks it) but with the WebAssembly keccak over words
 * written straight into one buffer, which matters for the hundreds of thousands of orders of a
 * million-name seed.
 */
export class OrderHasher {
  private readonly offerItemType: Buffer;
  private readonly considerationItemType: Buffer;
  private readonly orderType: Buffer;
  /** an item's words, then the order's: 13 words at most */
  private readonly words = Buffer.alloc(32 * 13);
  /** the items' hashes of one side of the order */
  private items = Buffer.alloc(32 * 8);

  constructor(readonly keccak: Keccak) {
    const typeHash = (s: string) => keccak(Buffer.from(s, 'utf8'));
    this.offerItemType = typeHash(OFFER_ITEM);
    this.considerationItemType = typeHash(CONSIDERATION_ITEM);
    this.orderType = typeHash(ORDER_COMPONENTS + CONSIDERATION_ITEM + OFFER_ITEM);
  }

  /** keccak256 of the hashes of `items`, each the struct hash of one item */
  private side(list: readonly (OfferItem & { recipient?: string })[]): Buffer {
    if (this.items.length < 32 * list.length) this.items = Buffer.alloc(32 * list.length);
    const w = this.words;
    list.forEach((i, k) => {
      (i.recipient === undefined ? this.offerItemType : this.considerationItemType).copy(w, 0);
      writeWord(w, 32, i.itemType);
      writeWord(w, 64, i.token);
      writeWord(w, 96, i.identifierOrCriteria);
      writeWord(w, 128, i.startAmount);
      writeWord(w, 160, i.endAmount);
      if (i.recipient !== undefined) writeWord(w, 192, i.recipient);
      this.keccak(w.subarray(0, i.recipient === undefined ? 192 : 224)).copy(this.items, 32 * k);
    });
    return this.keccak(this.items.subarray(0, 32 * list.length));
  }

  hash(o: OrderComponents): Hex {
    const offer = this.side(o.offer);
    const consideration = this.side(o.consideration);
    const w = this.words;
    this.orderType.copy(w, 0);
    writeWord(w, 32, o.offerer);
    writeWord(w, 64, o.zone);
    offer.copy(w, 96);
    consideration.copy(w, 128);
    writeWord(w, 160, o.orderType);
    writeWord(w, 192, o.startTime);
    writeWord(w, 224, o.endTime);
    writeWord(w, 256, o.zoneHash);
    writeWord(w, 288, o.salt);
    writeWord(w, 320, o.conduitKey);
    writeWord(w, 352, o.counter);
    return `0x${this.keccak(w.subarray(0, 384)).toString('hex')}`;
  }
}

/** Signs orders for the demo accounts: the EIP-712 digest from the order hash, signed with the key. */
export class OrderSigner {
  private readonly separator: Buffer;
  private readonly byAddress: Map<string, HDAccount>;

  constructor(accounts: HDAccount[], config: SeaportDomainConfig, private readonly keccak: Keccak) {
    this.separator = Buffer.from(domainSeparator({ domain: seaportDomain(config) }).slice(2), 'hex');
    this.byAddress = new Map(accounts.map((a) => [a.address.toLowerCase(), a]));
  }

  canSign(address: string): boolean {
    return this.byAddress.has(address);
  }

  /**
   * A real signature when the offerer is a demo account. Other offerers' keys are unknown, so
   * their orders carry a well-formed but unverifiable 65-byte signature (r, s from a hash of the
   * order hash, low s, v 27/28): they look like stored orders but would not pass verification.
   */
  async sign(offerer: string, hash: Hex): Promise<Hex> {
    const account = this.byAddress.get(offerer);
    if (!account) {
      const r = this.keccak(Buffer.from(hash.slice(2), 'hex'));
      const s = this.keccak(r);
      s[0] &= 0x7f;
      return `0x${r.toString('hex')}${s.toString('hex')}${r[0] & 1 ? '1c' : '1b'}`;
    }
    const digest: Hex = `0x${this.keccak(Buffer.concat([Buffer.from([0x19, 0x01]), this.separator, Buffer.from(hash.slice(2), 'hex')])).toString('hex')}`;
    return account.sign!({ hash: digest });
  }
}
