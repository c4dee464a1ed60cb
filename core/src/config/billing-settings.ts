import { DEFAULT_GRACE_DAYS } from '@mediagen/shared';
import { wholeNumber, type EnvReader } from './env-reader';

/**
 * BILLING_GRACE_DAYS: how long a past-due subscription keeps its plan. The server shows it and settles it
 * at read time; the worker's sweep falls accounts back to Free when it is over, so both read it alike.
 */
export function readBillingGraceDays(reader: EnvReader): number {
  return reader.read('BILLING_GRACE_DAYS', wholeNumber(0, 60), String(DEFAULT_GRACE_DAYS)) ?? DEFAULT_GRACE_DAYS;
}
