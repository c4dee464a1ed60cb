import { createTransport } from 'nodemailer';
import { z } from 'zod';
import { MODE_VARIABLE, type Mode } from '../config/common-settings';
import type { EnvReader } from '../config/env-reader';

/**
 * How operators' replies to support requests leave: through SMTP (`SMTP_URL`), or, in development
 * without it, written to the log instead of sent. `off` is the queue CLI's in production without it: the
 * server refuses to start that way, the CLI only refuses to answer.
 */
export type SupportMailSettings =
  { kind: 'smtp'; url: string; from: string } | { kind: 'log'; from: string } | { kind: 'off' };

const DEV_FROM = 'MediaGen support <support@localhost>';

const smtpUrl = z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' });
/** `support@example.com`, or `Name <support@example.com>`. */
const fromAddress = z.string().regex(/^(?:[^<>\p{Cc}]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/u, {
  error: 'must be an email address, or a name and an address like "MediaGen <support@example.com>"',
});

/**
 * SMTP_URL and SUPPORT_EMAIL_FROM. The server passes `requiredInProduction`: like every setting its
 * job needs, a production server refuses to start without them (replies would silently go nowhere).
 */
export function readSupportMailSettings(
  reader: EnvReader,
  mode: Mode,
  options: { requiredInProduction: boolean },
): SupportMailSettings {
  const development = mode === 'development';
  const needed = `required when ${MODE_VARIABLE} is not development: operators' replies to support requests are sent through it`;
  const url =
    development || !options.requiredInProduction
      ? reader.read('SMTP_URL', smtpUrl)
      : reader.require('SMTP_URL', smtpUrl, needed);
  const from =
    development || url === undefined
      ? reader.read('SUPPORT_EMAIL_FROM', fromAddress)
      : reader.require(
          'SUPPORT_EMAIL_FROM',
          fromAddress,
          'required with SMTP_URL outside development: the From of replies',
        );
  if (url !== undefined) return { kind: 'smtp', url, from: from ?? DEV_FROM };
  return development ? { kind: 'log', from: from ?? DEV_FROM } : { kind: 'off' };
}

export interface SupportMail {
  to: string;
  subject: string;
  /** Plain text only: a reply is never sent as HTML. */
  text: string;
}

export interface SupportMailer {
  /** How replies leave, for logs and the CLI: "smtp host", "the log", "nowhere". */
  readonly via: string;
  send(mail: SupportMail): Promise<void>;
}

export class SupportMailUnavailable extends Error {
  override readonly name = 'SupportMailUnavailable';
}

export interface MailLog {
  info(details: Record<string, unknown>, message: string): void;
}

/** An SMTP conversation that stalls must not hold an operator's request for long. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function createSupportMailer(settings: SupportMailSettings, log: MailLog): SupportMailer {
  switch (settings.kind) {
    case 'smtp': {
      const transport = createTransport({ url: settings.url, ...SMTP_TIMEOUTS }, { from: settings.from });
      return {
        via: `SMTP at ${new URL(settings.url).host}`,
        async send(mail) {
          await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
        },
      };
    }
    case 'log':
      return {
        via: 'the log (development: SMTP_URL is unset)',
        async send(mail) {
          log.info(
            { from: settings.from, ...mail },
            'support reply written to the log, not sent (development without SMTP_URL)',
          );
        },
      };
    case 'off':
      return {
        via: 'nowhere (SMTP_URL is unset)',
        send() {
          return Promise.reject(
            new SupportMailUnavailable('replies cannot be sent: set SMTP_URL and SUPPORT_EMAIL_FROM'),
          );
        },
      };
  }
}
