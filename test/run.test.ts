// `npm test`'s runner (test/run.ts): which arguments it splits into the unit and e2e runs, and how it merges their
// JSON reports into the one report .ci/run reads.
import { describe, expect, it } from 'vitest';
import { mergeReports, splitPlan } from './run.ts';

describe('npm test runner', () => {
  it('splits options given as --name or --name=value, and takes the JSON report path out of them', () => {
    expect(splitPlan([])).toEqual({ shared: [], jsonReport: undefined });
    expect(splitPlan(['--reporter=default', '--reporter=json', '--outputFile.json=/tmp/r.json'])).toEqual({
      shared: ['--reporter=default', '--reporter=json'],
      jsonReport: '/tmp/r.json',
    });
  });

  it('runs one vitest as asked for file filters, separate option values, projects, watch mode and other outputs', () => {
    for (const args of [
      ['test/cli'],
      ['--reporter', 'json'],
      ['-t', 'name'],
      ['--project=unit'],
      ['--watch'],
      ['--outputFile=/tmp/r.xml'],
      ['--outputFile.junit=/tmp/r.xml'],
    ])
      expect(splitPlan(args), args.join(' ')).toBeUndefined();
  });

  it('adds the counts, joins the files, and succeeds only when both runs did', () => {
    const snapshot = (n: number, failure: boolean) => ({ total: n, failure, filesRemovedList: [`f${n}`] });
    const unit = {
      numTotalTests: 3,
      numFailedTests: 0,
      startTime: 20,
      success: true,
      testResults: ['a', 'b'],
      snapshot: snapshot(1, false),
    };
    const e2e = {
      numTotalTests: 2,
      numFailedTests: 1,
      startTime: 10,
      success: false,
      testResults: ['c'],
      snapshot: snapshot(2, true),
    };
    expect(mergeReports(unit, e2e)).toEqual({
      numTotalTests: 5,
      numFailedTests: 1,
      startTime: 10,
      success: false,
      testResults: ['a', 'b', 'c'],
      snapshot: { total: 3, failure: true, filesRemovedList: ['f1', 'f2'] },
    });
  });
});
