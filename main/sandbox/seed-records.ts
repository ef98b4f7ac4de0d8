/**
 * Example buyers and bank accounts for the seeded marketplace, so a fresh sandbox answers the
 * contract's reads with something to show: people with valid CPFs, a company with a valid
 * numeric CNPJ and one with an alphanumeric CNPJ (as issued since July 2026), one person with
 * only the required data (so null fields are visible too), and accounts of the store at Itaú,
 * Bradesco and Nubank (260, a code outside the contract's list, so a null bank_name is visible).
 * The documents are made up for the sandbox, with valid check digits.
 */
import type { BuyerCreateRequest } from '../contract/index.js';
import type { SandboxContext } from './context.js';
import { findSeller, type MarketplaceInfo } from './marketplaces.js';
import { insertBankAccount, type NewBankAccount } from './store/bank-accounts.js';
import { insertBuyer } from './store/buyers.js';
import { newId } from './time.js';

export const EXAMPLE_BUYERS: readonly BuyerCreateRequest[] = [
  {
    first_name: 'Maria Aparecida',
    last_name: 'Souza',
    email: 'maria.souza@example.com',
    phone_number: '11987654321',
    taxpayer_id: '52998224725',
    birthdate: '1985-03-14',
    address: {
      line1: 'Rua Augusta, 1508',
      line2: 'Apto 42',
      neighborhood: 'Consolação',
      city: 'São Paulo',
      state: 'SP',
      postal_code: '01304001',
      country_code: 'BR',
    },
    metadata: { loyalty_card: 'CLUBE-0042' },
  },
  {
    first_name: 'João Pedro',
    last_name: 'Oliveira',
    email: 'joao.oliveira@example.com',
    phone_number: '21998765432',
    taxpayer_id: '39053344705',
    birthdate: '1992-11-02',
    address: {
      line1: 'Avenida Nossa Senhora de Copacabana, 680',
      line3: '',
      neighborhood: 'Copacabana',
      city: 'Rio de Janeiro',
      state: 'RJ',
      postal_code: '22050002',
      country_code: 'BR',
    },
  },
  { first_name: 'Ana Beatriz', last_name: 'Lima', taxpayer_id: '71460238001' },
  {
    first_name: 'Padaria Pão Dourado',
    last_name: 'Ltda',
    email: 'financeiro@paodourado.example.com',
    phone_number: '3132221144',
    ein: '45339827000162',
    address: {
      line1: 'Rua da Bahia, 1148',
      line2: 'Loja 2',
      neighborhood: 'Centro',
      city: 'Belo Horizonte',
      state: 'MG',
      postal_code: '30160011',
      country_code: 'BR',
    },
    metadata: { segment: 'food', erp_code: 'PD-771' },
  },
  {
    first_name: 'Mercadinho Nova Era',
    last_name: 'Ltda',
    email: 'compras@novaera.example.com',
    // NE.4AB.1C2/0001-81: an alphanumeric CNPJ.
    ein: 'NE4AB1C2000181',
    address: {
      line1: 'Avenida Sete de Setembro, 2200',
      neighborhood: 'Vitória',
      city: 'Salvador',
      state: 'BA',
      postal_code: '40080001',
      country_code: 'BR',
    },
  },
];

/** The store's accounts; `customer` is filled with the seeded seller id. */
export const EXAMPLE_BANK_ACCOUNTS: ReadonlyArray<
  Omit<NewBankAccount, 'customer' | 'holder_name' | 'taxpayer_id'> & {
    readonly holder?: { readonly name: string; readonly taxpayer_id: string };
  }
> = [
  { bank_code: '341', type: 'checking', routing_number: '0912', account_number: '45678-3', is_verified: true },
  { bank_code: '237', type: 'savings', routing_number: '1234-5', account_number: '0098765-4' },
  {
    bank_code: '260',
    type: 'checking',
    routing_number: '0001',
    account_number: '88123456-7',
    holder: { name: 'Carlos Eduardo Mendes', taxpayer_id: '16899535009' },
  },
];

export function seedExampleRecords(ctx: SandboxContext, info: MarketplaceInfo): void {
  const now = ctx.now();
  for (const buyer of EXAMPLE_BUYERS) insertBuyer(ctx.db, info.marketplaceId, buyer, now);

  const seller = findSeller(ctx, info.marketplaceId, info.sellerId);
  if (!seller) throw new Error(`Seed: seller ${info.sellerId} of marketplace ${info.marketplaceId} is missing`);
  for (const { holder, ...account } of EXAMPLE_BANK_ACCOUNTS) {
    insertBankAccount(
      ctx.db,
      info.marketplaceId,
      {
        ...account,
        customer: seller.id,
        holder_name: holder?.name ?? seller.business_name,
        taxpayer_id: holder?.taxpayer_id ?? seller.ein,
        // Internal data a real service keeps (and must filter out of every response).
        metadata: {
          full_account_number: account.account_number,
          document_image: `sandbox://documents/${newId()}.jpg`,
          verification_token: newId(),
        },
      },
      now,
    );
  }
}
