import { describe, expect, it } from 'vitest';
import { UsageError, parseCli } from '../src';

describe('parseCli', () => {
  it('reads every command with its arguments and options', () => {
    expect(parseCli(['counts', '--json'])).toEqual({ command: { name: 'counts' }, json: true });
    expect(parseCli(['job', 'image_abc'])).toEqual({ command: { name: 'job', id: 'image_abc' }, json: false });
    expect(parseCli(['find', '--user', 'u1']).command).toEqual({ name: 'find', by: 'user', value: 'u1', limit: 100 });
    expect(parseCli(['find', '--task', 't1', '--limit', '50']).command).toEqual({
      name: 'find',
      by: 'task',
      value: 't1',
      limit: 50,
    });
    expect(parseCli(['pause', 'all']).command).toEqual({ name: 'pause', kinds: ['image', 'video', 'speech'] });
    expect(parseCli(['resume', 'video']).command).toEqual({ name: 'resume', kinds: ['video'] });
    expect(parseCli(['retry-failed', 'image', '--limit', '5', '--free']).command).toEqual({
      name: 'retry-failed',
      kinds: ['image'],
      limit: 5,
      free: true,
    });
    expect(parseCli(['drain-user', 'u1']).command).toEqual({
      name: 'drain-user',
      uid: 'u1',
      reason: 'drained by an operator',
    });
    expect(parseCli(['drain-user', 'u1', '--reason', ' abuse report #12 ']).command).toEqual({
      name: 'drain-user',
      uid: 'u1',
      reason: 'abuse report #12',
    });
    expect(parseCli(['plan', 'u1']).command).toEqual({
      name: 'plan',
      uid: 'u1',
      plan: null,
      reason: 'plan set by an operator',
    });
    expect(parseCli(['plan', 'u1', 'pro', '--reason', 'ticket 9']).command).toMatchObject({
      plan: 'pro',
      reason: 'ticket 9',
    });
    expect(parseCli(['spend']).command).toEqual({ name: 'spend', by: 'day', days: 7 });
    expect(parseCli(['spend', '--by', 'plan', '--days', '30']).command).toEqual({
      name: 'spend',
      by: 'plan',
      days: 30,
    });
    expect(parseCli(['budget', 'minimax', '99.50']).command).toEqual({
      name: 'budget',
      scope: 'minimax',
      dailyUsd: 99.5,
    });
    expect(parseCli(['budget', 'global', 'off']).command).toEqual({ name: 'budget', scope: 'global', dailyUsd: null });
    expect(parseCli(['clear-out-of-credit', 'stability']).command).toEqual({
      name: 'clear-out-of-credit',
      provider: 'stability',
    });
    expect(parseCli(['kill-switch', 'on']).command).toEqual({
      name: 'kill-switch',
      on: true,
      reason: 'switched by an operator',
    });
  });

  it('treats no command, help and --help as a request for the usage text', () => {
    for (const argv of [[], ['help'], ['--help'], ['counts', '-h']])
      expect(parseCli(argv).command).toEqual({ name: 'help' });
  });

  it.each([
    [['bogus'], /unknown command 'bogus'/],
    [['pause'], /pause needs a kind/],
    [['pause', 'cats'], /unknown kind 'cats'/],
    [['job'], /job needs a job id/],
    [['job', 'a', 'b'], /unexpected 'b'/],
    [['find'], /exactly one of --user/],
    [['find', '--user', 'a', '--task', 'b'], /exactly one of --user/],
    [['retry-failed', 'all', '--limit', '0'], /--limit must be a positive integer/],
    [['counts', '--free'], /option --free does not apply to counts/],
    [['find', '--user', 'a', '--reason', 'x'], /option --reason does not apply to find/],
    [['counts', '--nope'], /Unknown option '--nope'/],
    [['plan', 'u1', 'gold'], /unknown plan 'gold': use free, pro, enterprise/],
    [['spend', '--by', 'week'], /--by must be one of day, provider, kind, plan, user/],
    [['budget', 'acme', '5'], /unknown budget scope 'acme'/],
    [['budget', 'openai', 'ten'], /the budget must be US dollars/],
    [['kill-switch', 'maybe'], /kill-switch takes on or off/],
    [['clear-out-of-credit', 'acme'], /unknown provider 'acme': use stability, minimax, openai/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCli(argv)).toThrow(UsageError);
    expect(() => parseCli(argv)).toThrow(message);
  });
});
