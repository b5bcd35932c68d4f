import { beforeAll, describe, expect, it } from 'vitest';
import { buildRoutingContext, valueAtPath } from '../../lib/rule-engine';
import { context, holds } from './support';
import { withCpuTime } from '../support/cpu-time';
import { loadEveryPackageOnFirstUse } from '../../lib/on-first-use';

// The engines are called directly here: the packages they load on first use are loaded beforehand.
beforeAll(loadEveryPackageOnFirstUse);

const ctx = context(
  {
    title: 'Disk full on db-1',
    urgency: 'high',
    tags: ['db', 'prod'],
    dedup_count: 3,
    meta: { incident: false, region: 'eu-west-1' },
    checks: [
      { name: 'disk', value: 97 },
      { name: 'cpu', value: 40 },
    ],
  },
  { host: 'db-1', severity: 'critical', metrics: { load: 7.5 }, labels: [{ key: 'team', value: 'storage' }] },
  { 'user-agent': 'Alertmanager/0.27', 'x-request-id': 'abc' },
);

describe('match conditions over {always, alert, log, log_parsed}', () => {
  it('always and log_parsed', () => {
    expect(holds({ always: true }, ctx)).toBe(true);
    expect(holds({ log_parsed: true }, ctx)).toBe(true);
    expect(holds({ log_parsed: true }, buildRoutingContext({ alert: {}, log: { data: 'plain text body' } }))).toBe(false);
    expect(holds({ log_parsed: false }, buildRoutingContext({ alert: {} }))).toBe(true);
  });

  it('equality by value, $eq and $ne, on dotted paths into the alert and the log', () => {
    expect(holds({ 'alert.urgency': 'high' }, ctx)).toBe(true);
    expect(holds({ 'alert.urgency': 'low' }, ctx)).toBe(false);
    expect(holds({ 'log.data.metrics.load': { $eq: 7.5 } }, ctx)).toBe(true);
    expect(holds({ 'log.headers.user-agent': 'Alertmanager/0.27' }, ctx)).toBe(true);
    expect(holds({ 'alert.meta.region': { $ne: 'us-east-1' } }, ctx)).toBe(true);
    expect(holds({ 'alert.meta.region': { $ne: 'eu-west-1' } }, ctx)).toBe(false);
    // A value inside a list matches the list.
    expect(holds({ 'alert.tags': 'prod' }, ctx)).toBe(true);
    expect(holds({ 'alert.tags': ['db', 'prod'] }, ctx)).toBe(true);
  });

  it('$gt $gte $lt $lte compare values of the same type', () => {
    expect(holds({ 'alert.dedup_count': { $gt: 2 } }, ctx)).toBe(true);
    expect(holds({ 'alert.dedup_count': { $gt: 3 } }, ctx)).toBe(false);
    expect(holds({ 'alert.dedup_count': { $gte: 3 } }, ctx)).toBe(true);
    expect(holds({ 'alert.dedup_count': { $lt: 3 } }, ctx)).toBe(false);
    expect(holds({ 'alert.dedup_count': { $lte: 3, $gt: 1 } }, ctx)).toBe(true);
    expect(holds({ 'alert.dedup_count': { $gt: '1' } }, ctx)).toBe(false);
    expect(holds({ 'alert.title': { $gte: 'D', $lt: 'E' } }, ctx)).toBe(true);
  });

  it('$in and $nin', () => {
    expect(holds({ 'alert.urgency': { $in: ['high', 'critical'] } }, ctx)).toBe(true);
    expect(holds({ 'alert.urgency': { $in: ['low'] } }, ctx)).toBe(false);
    expect(holds({ 'alert.urgency': { $nin: ['low', 'medium'] } }, ctx)).toBe(true);
    expect(holds({ 'alert.tags': { $nin: ['prod'] } }, ctx)).toBe(false);
    expect(holds({ 'alert.missing': { $in: [null] } }, ctx)).toBe(true);
  });

  it('$exists', () => {
    expect(holds({ 'log.data.host': { $exists: true } }, ctx)).toBe(true);
    expect(holds({ 'log.data.nope': { $exists: true } }, ctx)).toBe(false);
    expect(holds({ 'log.data.nope': { $exists: false } }, ctx)).toBe(true);
    expect(holds({ 'alert.meta.incident': { $exists: true } }, ctx)).toBe(true);
  });

  it('$regex with $options, on RE2', () => {
    expect(holds({ 'alert.title': { $regex: '^disk', $options: 'i' } }, ctx)).toBe(true);
    expect(holds({ 'alert.title': { $regex: '^disk' } }, ctx)).toBe(false);
    expect(holds({ 'alert.title': { $regex: 'db-\\d+$' } }, ctx)).toBe(true);
    expect(holds({ 'alert.tags': { $regex: '^pro' } }, ctx)).toBe(true);
    expect(holds({ 'alert.dedup_count': { $regex: '3' } }, ctx)).toBe(false);
    const multiline = context({ description: 'first\nsecond' });
    expect(holds({ 'alert.description': { $regex: '^second$' } }, multiline)).toBe(false);
    expect(holds({ 'alert.description': { $regex: '^second$', $options: 'm' } }, multiline)).toBe(true);
    expect(holds({ 'alert.description': { $regex: 'first.second' } }, multiline)).toBe(false);
    expect(holds({ 'alert.description': { $regex: 'first.second', $options: 's' } }, multiline)).toBe(true);
  });

  it('a pattern that makes backtracking engines hang runs in linear time', async () => {
    const evil = context({ title: `${'a'.repeat(50_000)}!` });

    const { cpuMs } = await withCpuTime(() => {
      expect(holds({ 'alert.title': { $regex: '^(a+)+$' } }, evil)).toBe(false);
      expect(holds({ 'alert.title': { $regex: '^(a|aa)*$' } }, evil)).toBe(false);
    });
    expect(cpuMs).toBeLessThan(3000);
  });

  it('$and $or $nor $not', () => {
    expect(holds({ $and: [{ 'alert.urgency': 'high' }, { 'log.data.host': 'db-1' }] }, ctx)).toBe(true);
    expect(holds({ $and: [{ 'alert.urgency': 'high' }, { 'log.data.host': 'db-2' }] }, ctx)).toBe(false);
    expect(holds({ $or: [{ 'alert.urgency': 'low' }, { 'log.data.host': 'db-1' }] }, ctx)).toBe(true);
    expect(holds({ $or: [{ 'alert.urgency': 'low' }, { 'log.data.host': 'db-2' }] }, ctx)).toBe(false);
    expect(holds({ $nor: [{ 'alert.urgency': 'low' }, { 'log.data.host': 'db-2' }] }, ctx)).toBe(true);
    expect(holds({ $nor: [{ 'alert.urgency': 'high' }] }, ctx)).toBe(false);
    expect(holds({ 'alert.title': { $not: { $regex: 'cpu' } } }, ctx)).toBe(true);
    expect(holds({ 'alert.title': { $not: { $regex: 'disk', $options: 'i' } } }, ctx)).toBe(false);
    expect(holds({ $not: { 'alert.urgency': 'low' } }, ctx)).toBe(true);
  });

  it('$size $all $elemMatch', () => {
    expect(holds({ 'alert.tags': { $size: 2 } }, ctx)).toBe(true);
    expect(holds({ 'alert.tags': { $size: 3 } }, ctx)).toBe(false);
    expect(holds({ 'alert.tags': { $all: ['prod', 'db'] } }, ctx)).toBe(true);
    expect(holds({ 'alert.tags': { $all: ['prod', 'web'] } }, ctx)).toBe(false);
    expect(holds({ 'alert.checks': { $elemMatch: { name: 'disk', value: { $gte: 90 } } } }, ctx)).toBe(true);
    expect(holds({ 'alert.checks': { $elemMatch: { name: 'cpu', value: { $gte: 90 } } } }, ctx)).toBe(false);
    expect(holds({ 'log.data.labels': { $elemMatch: { key: 'team', value: { $in: ['storage', 'db'] } } } }, ctx)).toBe(true);
    expect(holds({ 'alert.checks.value': { $elemMatch: { $gt: 90 } } }, context({ checks: { value: [91, 3] } }))).toBe(true);
  });

  it('$mod and $type', () => {
    expect(holds({ 'alert.dedup_count': { $mod: [2, 1] } }, ctx)).toBe(true);
    expect(holds({ 'alert.dedup_count': { $mod: [3, 1] } }, ctx)).toBe(false);
    expect(holds({ 'alert.title': { $type: 'string' } }, ctx)).toBe(true);
    expect(holds({ 'alert.dedup_count': { $type: 'int' } }, ctx)).toBe(true);
    expect(holds({ 'log.data.metrics.load': { $type: 'int' } }, ctx)).toBe(false);
    expect(holds({ 'log.data.metrics.load': { $type: 'double' } }, ctx)).toBe(true);
    expect(holds({ 'alert.meta': { $type: 'object' } }, ctx)).toBe(true);
    expect(holds({ 'alert.tags': { $type: 'array' } }, ctx)).toBe(true);
    expect(holds({ 'alert.meta.incident': { $type: 8 } }, ctx)).toBe(true);
    expect(holds({ 'alert.meta.incident': { $type: ['string', 'null'] } }, ctx)).toBe(false);
  });

  it('several conditions in one match must all hold', () => {
    expect(holds({ 'alert.urgency': 'high', 'log.data.host': 'db-1', always: true }, ctx)).toBe(true);
    expect(holds({ 'alert.urgency': 'high', 'log.data.host': 'db-9' }, ctx)).toBe(false);
  });

  it('reads values through lists as MongoDB does', () => {
    expect(valueAtPath(ctx, 'alert.checks.name')).toEqual(['disk', 'cpu']);
    expect(valueAtPath(ctx, 'alert.checks.0.name')).toBe('disk');
    expect(valueAtPath(ctx, 'log.data.metrics.load')).toBe(7.5);
    expect(valueAtPath(ctx, 'log.data.nope.deeper')).toBeUndefined();
  });
});
