import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id in Stripe's form, a type prefix and random letters and digits: `cus_Na6dX7aXxi11N4`. */
export function stripeId(prefix: string, length = 24): string {
  let id = '';
  for (let index = 0; index < length; index += 1) id += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}_${id}`;
}

/** Stripe's timestamps are whole seconds since the epoch. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
