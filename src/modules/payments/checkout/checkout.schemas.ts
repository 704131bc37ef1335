import { type Static, Type } from 'typebox';
import { INVOICE_ITEM_TYPES, type InvoiceRecord, PAYMENT_METHODS } from '../invoices/invoices.schemas.js';

const INT4_MAX = 2_147_483_647;

export const CheckoutBody = Type.Object(
  {
    item: Type.Enum([...INVOICE_ITEM_TYPES], {
      description: '`package`: a membership package; `listing`: the fee of one draft listing; `featured`: featuring one published listing',
    }),
    id: Type.Integer({ minimum: 1, maximum: INT4_MAX, description: 'The package or listing id' }),
    method: Type.Optional(
      Type.Enum([...PAYMENT_METHODS], { description: 'Required unless the item costs nothing; `free` only for items that cost nothing' }),
    ),
  },
  { additionalProperties: false },
);
export type CheckoutInput = Static<typeof CheckoutBody>;

export const CheckoutResult = Type.Object({
  invoice: Type.Ref('Invoice'),
  checkout_url: Type.Optional(Type.String({ format: 'uri', description: '`stripe`: the Stripe Checkout page to send the buyer to' })),
  instructions: Type.Optional(
    Type.String({ description: '`bank_transfer`: how to pay, with the invoice number as the transfer reference' }),
  ),
});
export interface CheckoutResultRecord {
  invoice: InvoiceRecord;
  checkout_url?: string;
  instructions?: string;
}
