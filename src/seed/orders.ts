import { createHash, pbkdf2Sync } from 'node:crypto';
import { domainSeparator, keccak256, type Hex } from 'viem';
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

function word(value: string | number): string {
  return (typeof value === 'string' && value.startsWith('0x') ? value.slice(2) : BigInt(value).toString(16)).padStart(64, '0');
}

/**
 * Seaport's order hash, the EIP-712 struct hash of the order components: the same value as
 * `orderHash` of src/lib/seaport.ts (a test checks it) but with the WebAssembly keccak, which
 * matters for the hundreds of thousands of orders of a million-name seed.
 */
export class OrderHasher {
  private readonly offerItemType: string;
  private readonly considerationItemType: string;
  private readonly orderType: string;

  constructor(private readonly keccak: Keccak) {
    const typeHash = (s: string) => keccak(Buffer.from(s, 'utf8')).toString('hex');
    this.offerItemType = typeHash(OFFER_ITEM);
    this.considerationItemType = typeHash(CONSIDERATION_ITEM);
    this.orderType = typeHash(ORDER_COMPONENTS + CONSIDERATION_ITEM + OFFER_ITEM);
  }

  private hex(words: string): string {
    return this.keccak(Buffer.from(words, 'hex')).toString('hex');
  }

  private item(i: OfferItem & { recipient?: string }): string {
    const head = i.recipient === undefined ? this.offerItemType : this.considerationItemType;
    const words = head + word(i.itemType) + word(i.token) + word(i.identifierOrCriteria) + word(i.startAmount) + word(i.endAmount);
    return this.hex(i.recipient === undefined ? words : words + word(i.recipient));
  }

  hash(o: OrderComponents): Hex {
    return `0x${this.hex(this.orderType + word(o.offerer) + word(o.zone)
      + this.hex(o.offer.map((i) => this.item(i)).join('')) + this.hex(o.consideration.map((i) => this.item(i)).join(''))
      + word(o.orderType) + word(o.startTime) + word(o.endTime) + word(o.zoneHash) + word(o.salt) + word(o.conduitKey) + word(o.counter))}`;
  }
}

/** Signs orders for the demo accounts: the EIP-712 digest from the order hash, signed with the key. */
export class OrderSigner {
  private readonly separator: Buffer;
  private readonly byAddress: Map<string, HDAccount>;

  constructor(accounts: HDAccount[], config: SeaportDomainConfig) {
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
      const r = createHash('sha256').update(`r${hash}`).digest();
      const s = createHash('sha256').update(`s${hash}`).digest();
      s[0] &= 0x7f;
      return `0x${r.toString('hex')}${s.toString('hex')}${r[0] & 1 ? '1c' : '1b'}`;
    }
    const digest = keccak256(Buffer.concat([Buffer.from([0x19, 0x01]), this.separator, Buffer.from(hash.slice(2), 'hex')]));
    return account.sign!({ hash: digest });
  }
}
