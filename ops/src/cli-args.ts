import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { BUDGET_SCOPES, type BudgetScope, type SpendGrouping } from '@mediagen/core';
import {
  GENERATION_KINDS,
  PLAN_IDS,
  answerSupportRequestSchema,
  PROVIDERS,
  type GenerationKind,
  type PlanId,
  type ProviderName,
} from '@mediagen/shared';
import { UsageError } from './ops-errors';

export type Command =
  | { name: 'help' }
  | { name: 'counts' }
  | { name: 'job'; id: string }
  | { name: 'find'; by: 'user' | 'task'; value: string; limit: number }
  | { name: 'pause' | 'resume'; kinds: GenerationKind[] }
  | { name: 'retry-failed'; kinds: GenerationKind[]; limit: number; free: boolean }
  | { name: 'drain-user'; uid: string; reason: string }
  | { name: 'plan'; uid: string; plan: PlanId | null; reason: string }
  | { name: 'spend'; by: SpendGrouping; days: number }
  | { name: 'budget'; scope: BudgetScope; dailyUsd: number | null }
  | { name: 'kill-switch'; on: boolean; reason: string }
  | { name: 'clear-out-of-credit'; provider: ProviderName }
  | { name: 'support'; action: 'list'; status: 'open' | 'all'; limit: number }
  | { name: 'sales'; limit: number }
  | { name: 'support'; action: 'answer'; id: number; reply: string | null; by: string };

export interface CliInvocation {
  command: Command;
  json: boolean;
}

export const USAGE = `Usage: pnpm queues <command> [options]

Commands:
  counts                         jobs per state in each queue, paused and rate-limited queues, and the
                                 generations the record holds queued and active
  job <id>                       one generation: its record, and its job (state, attempts, logs) while kept
  find --user <uid>              a user's generations, newest first
  find --task <providerTaskId>   the video generation of a MiniMax task
      [--limit N]                at most N (default 100)
  pause <kind|all>               stop workers taking jobs of that queue (active jobs finish)
  resume <kind|all>              let them take jobs again
  retry-failed <kind|all>        put failed generations back in their queue, charged as a submission is (the
                                 plan as it is now, the in-flight and daily caps, a token of this period);
                                 one a rule refuses is skipped, and says why
      [--limit N]                at most N in all (default 100)
      [--free]                   without charging a token (the other rules hold)
  drain-user <uid>               cancel the user's queued and active generations, as their own cancels would
                                 (refunded unless a provider had started paid work), and clear their jobs
      [--reason TEXT]            kept in the token ledger (default "drained by an operator")
  plan <uid> [free|pro|enterprise]
                                 a user's plan and balance; with a plan, moves the user to it at once (what
                                 the period spent stays spent; waiting jobs take its priority; served files
                                 follow the plan's watermark)
      [--reason TEXT]            kept in the token ledger (default "plan set by an operator")
  spend                          estimated provider spend: today per provider against its budget, the kill
                                 switch, and totals
      [--by day|provider|kind|plan|user]  how totals are grouped (default day)
      [--days N]                 over the last N days, today included (default 7)
  budget <stability|minimax|openai|global> <usd|off>
                                 the daily budget of a provider (or of all): reached, its paid calls wait
  kill-switch <on|off>           hold back every paid provider call at once, on every worker (jobs wait)
      [--reason TEXT]            shown in \`spend\` (default "switched by an operator")
  clear-out-of-credit <stability|minimax|openai>
                                 credit was bought: the provider's paid calls go out again at once (a
                                 worker's balance check clears it too, within RECONCILE_INTERVAL_MS)
  support                        the support form's open requests, newest first
      [--all]                    answered ones too
      [--limit N]                at most N (default 100)
  sales                          Contact Sales requests, newest first
      [--limit N]                at most N (default 100)
  support answer <id>            mark a request answered
      [--reply TEXT]             and email TEXT to its sender (SMTP_URL; in development, printed instead)
      [--by NAME]                who answered, kept with it (default: the operating system user)

Options:
  --json                         machine-readable output
  -h, --help                     this text

Kinds: ${GENERATION_KINDS.join(', ')}, or all.
Environment: the same as the services' (DATABASE_URL, REDIS_URL or REDIS_SENTINELS, QUEUE_PREFIX;
MEDIAGEN_MODE=development for local defaults).
Exit codes: 0 done, 1 failure (e.g. the database or Redis unreachable), 2 bad input or unknown generation.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  user: { type: 'string' },
  task: { type: 'string' },
  limit: { type: 'string' },
  free: { type: 'boolean' },
  reason: { type: 'string' },
  by: { type: 'string' },
  days: { type: 'string' },
  all: { type: 'boolean' },
  reply: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;

/** Options each command accepts besides --json and --help; anything else is a mistake worth reporting. */
const ACCEPTS: Record<Exclude<Command['name'], 'help'>, OptionName[]> = {
  counts: [],
  job: [],
  find: ['user', 'task', 'limit'],
  pause: [],
  resume: [],
  'retry-failed': ['limit', 'free'],
  'drain-user': ['reason'],
  plan: ['reason'],
  spend: ['by', 'days'],
  budget: [],
  'kill-switch': ['reason'],
  'clear-out-of-credit': [],
  support: ['all', 'limit', 'reply', 'by'],
  sales: ['limit'],
};

const SPEND_GROUPINGS: readonly SpendGrouping[] = ['day', 'provider', 'kind', 'plan', 'user'];

function positiveInteger(option: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${option} must be a positive integer; got '${value}'`);
  return Number(value);
}

export function parseKinds(value: string | undefined, command: string): GenerationKind[] {
  if (value === undefined) throw new UsageError(`${command} needs a kind (${GENERATION_KINDS.join(', ')} or all)`);
  if (value === 'all') return [...GENERATION_KINDS];
  if ((GENERATION_KINDS as readonly string[]).includes(value)) return [value as GenerationKind];
  throw new UsageError(`unknown kind '${value}': use ${GENERATION_KINDS.join(', ')} or all`);
}

function exactly(positionals: string[], count: number, command: string, what: string): void {
  if (positionals.length < count) throw new UsageError(`${command} needs ${what}`);
  if (positionals.length > count)
    throw new UsageError(`${command} takes ${what} only; unexpected '${positionals[count]}'`);
}

export function parseCli(argv: readonly string[]): CliInvocation {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  const [name, ...rest] = positionals;
  if (values.help === true || name === undefined || name === 'help') return { command: { name: 'help' }, json };
  if (!(name in ACCEPTS)) throw new UsageError(`unknown command '${name}'`);
  const commandName = name as keyof typeof ACCEPTS;
  for (const option of Object.keys(values) as OptionName[]) {
    if (option !== 'json' && option !== 'help' && !ACCEPTS[commandName].includes(option)) {
      throw new UsageError(`option --${option} does not apply to ${commandName}`);
    }
  }
  const limit = positiveInteger('limit', values.limit, 100);

  switch (commandName) {
    case 'counts':
      exactly(rest, 0, 'counts', 'no arguments');
      return { command: { name: 'counts' }, json };
    case 'job':
      exactly(rest, 1, 'job', 'a job id');
      return { command: { name: 'job', id: rest[0]! }, json };
    case 'find': {
      exactly(rest, 0, 'find', '--user <uid> or --task <providerTaskId>');
      if ((values.user === undefined) === (values.task === undefined)) {
        throw new UsageError('find needs exactly one of --user <uid> or --task <providerTaskId>');
      }
      const by = values.user !== undefined ? 'user' : 'task';
      const value = (values.user ?? values.task)!;
      if (value === '') throw new UsageError(`--${by} must not be empty`);
      return { command: { name: 'find', by, value, limit }, json };
    }
    case 'pause':
    case 'resume':
      exactly(rest, 1, commandName, 'a kind (or all)');
      return { command: { name: commandName, kinds: parseKinds(rest[0], commandName) }, json };
    case 'retry-failed':
      exactly(rest, 1, 'retry-failed', 'a kind (or all)');
      return {
        command: {
          name: 'retry-failed',
          kinds: parseKinds(rest[0], 'retry-failed'),
          limit,
          free: values.free === true,
        },
        json,
      };
    case 'drain-user':
      exactly(rest, 1, 'drain-user', 'a user id');
      if (rest[0] === '') throw new UsageError('drain-user needs a non-empty user id');
      return {
        command: { name: 'drain-user', uid: rest[0]!, reason: values.reason?.trim() || 'drained by an operator' },
        json,
      };
    case 'spend': {
      exactly(rest, 0, 'spend', 'no arguments');
      const by = values.by ?? 'day';
      if (!SPEND_GROUPINGS.includes(by as SpendGrouping)) {
        throw new UsageError(`--by must be one of ${SPEND_GROUPINGS.join(', ')}; got '${by}'`);
      }
      const days = positiveInteger('days', values.days, 7);
      return { command: { name: 'spend', by: by as SpendGrouping, days }, json };
    }
    case 'budget': {
      exactly(rest, 2, 'budget', 'a scope and an amount (or off)');
      const [scope, amount] = rest as [string, string];
      if (!BUDGET_SCOPES.includes(scope as BudgetScope)) {
        throw new UsageError(`unknown budget scope '${scope}': use ${BUDGET_SCOPES.join(', ')}`);
      }
      if (amount !== 'off' && !/^\d+(\.\d{1,2})?$/.test(amount)) {
        throw new UsageError(`the budget must be US dollars like 250 or 99.50, or off; got '${amount}'`);
      }
      return {
        command: { name: 'budget', scope: scope as BudgetScope, dailyUsd: amount === 'off' ? null : Number(amount) },
        json,
      };
    }
    case 'kill-switch': {
      exactly(rest, 1, 'kill-switch', 'on or off');
      if (rest[0] !== 'on' && rest[0] !== 'off') throw new UsageError(`kill-switch takes on or off; got '${rest[0]}'`);
      return {
        command: {
          name: 'kill-switch',
          on: rest[0] === 'on',
          reason: values.reason?.trim() || 'switched by an operator',
        },
        json,
      };
    }
    case 'clear-out-of-credit': {
      exactly(rest, 1, 'clear-out-of-credit', 'a provider');
      const provider = rest[0]!;
      if (!(PROVIDERS as readonly string[]).includes(provider)) {
        throw new UsageError(`unknown provider '${provider}': use ${PROVIDERS.join(', ')}`);
      }
      return { command: { name: 'clear-out-of-credit', provider: provider as ProviderName }, json };
    }
    case 'support':
      return { command: parseSupport(rest, values, limit), json };
    case 'sales':
      exactly(rest, 0, 'sales', 'no arguments');
      return { command: { name: 'sales', limit }, json };
    case 'plan': {
      if (rest.length < 1 || rest.length > 2) throw new UsageError('plan needs a user id, and optionally a plan');
      if (rest[0] === '') throw new UsageError('plan needs a non-empty user id');
      const plan = rest[1];
      if (plan !== undefined && !(PLAN_IDS as readonly string[]).includes(plan)) {
        throw new UsageError(`unknown plan '${plan}': use ${PLAN_IDS.join(', ')}`);
      }
      return {
        command: {
          name: 'plan',
          uid: rest[0]!,
          plan: (plan as PlanId | undefined) ?? null,
          reason: values.reason?.trim() || 'plan set by an operator',
        },
        json,
      };
    }
  }
}

/** `support` lists; `support answer <id> [--reply TEXT] [--by NAME]` answers one. */
function parseSupport(
  rest: string[],
  values: { all?: boolean; reply?: string; by?: string; limit?: string },
  limit: number,
): Extract<Command, { name: 'support' }> {
  if (rest[0] !== 'answer') {
    exactly(rest, 0, 'support', "no arguments (or 'answer <id>')");
    for (const option of ['reply', 'by'] as const) {
      if (values[option] !== undefined) throw new UsageError(`option --${option} applies to support answer only`);
    }
    return { name: 'support', action: 'list', status: values.all === true ? 'all' : 'open', limit };
  }
  exactly(rest.slice(1), 1, 'support answer', 'a request id');
  for (const option of ['all', 'limit'] as const) {
    if (values[option] !== undefined) throw new UsageError(`option --${option} does not apply to support answer`);
  }
  const id = rest[1]!;
  if (!/^\d{1,10}$/.test(id) || Number(id) < 1 || Number(id) > 2_147_483_647) {
    throw new UsageError(`a support request id is a positive whole number; got '${id}'`);
  }
  // The same rules as the admin page's reply: checked and tidied by the API's own schema.
  const reply = values.reply === undefined ? undefined : answerSupportRequestSchema.safeParse({ reply: values.reply });
  if (reply !== undefined && !reply.success) {
    throw new UsageError(`--reply ${reply.error.issues[0]?.message ?? 'is invalid'}`);
  }
  const by = values.by?.trim() || `operator ${userInfo().username}`;
  if (/\p{Cc}/u.test(by) || by.length > 200) throw new UsageError('--by must be one line of at most 200 characters');
  return { name: 'support', action: 'answer', id: Number(id), reply: reply?.data.reply ?? null, by };
}
