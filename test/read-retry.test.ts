import { describe, expect, it } from 'vitest';
import { isAbortedStatement, isPlainRead, transactionEffect } from '../src/db/read-retry.js';

/**
 * Which statements a connection sends again after a Galera node aborted them (src/db/read-retry.ts): plain reads
 * only, never a locking read nor anything inside a transaction. The cluster itself is in test/galera-cluster.test.ts.
 */
describe('read retry', () => {
  it('sends again a plain SELECT or WITH, never a write or a locking read', () => {
    for (const read of [
      'select * from shipment where id = ?',
      '  SELECT 1',
      'with x as (select 1) select * from x',
      '(select 1) union (select 2)',
    ])
      expect(isPlainRead(read), read).toBe(true);
    for (const other of [
      'insert into event (a) values (?)',
      'update shipment set v = 1',
      'delete from change_log where id < 3',
      'select * from shipment where id = 1 for update',
      'select * from shipment for share',
      'select * from t lock in share mode',
      "select get_lock('tt', 5)",
      "select release_lock('tt')",
      'select 1 into @x',
      'alter table event add column x int',
    ])
      expect(isPlainRead(other), other).toBe(false);
  });

  it('follows the transaction: begin and start transaction open it, commit and rollback end it, a savepoint rollback does not', () => {
    expect(transactionEffect('begin')).toBe(true);
    expect(transactionEffect('START TRANSACTION')).toBe(true);
    expect(transactionEffect('commit')).toBe(false);
    expect(transactionEffect('rollback')).toBe(false);
    expect(transactionEffect('rollback to savepoint sp1')).toBeUndefined();
    expect(transactionEffect('select 1')).toBeUndefined();
  });

  it('takes only the server\'s "Deadlock found" (1213) as an abort', () => {
    expect(isAbortedStatement(Object.assign(new Error('Deadlock found'), { errno: 1213, code: 'ER_LOCK_DEADLOCK' }))).toBe(true);
    expect(isAbortedStatement(Object.assign(new Error('Lock wait timeout'), { errno: 1205 }))).toBe(false);
    expect(isAbortedStatement(new Error('boom'))).toBe(false);
    expect(isAbortedStatement(null)).toBe(false);
  });
});
