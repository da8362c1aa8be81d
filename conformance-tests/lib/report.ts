// Reports of a run: a readable summary per operation (failures with their request and response), JUnit XML
// for CI, and the coverage line of documented responses and operations.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Session } from './session.ts';

export interface Coverage {
  responses: number;
  responsesTotal: number;
  operations: number;
  operationsTotal: number;
  missing: string[];
  line: string;
}

export function coverage(s: Session): Coverage {
  const documented = s.contract.operations.flatMap((op) =>
    [...op.responses.keys()].filter((status) => /^\d{3}$/.test(status)).map((status) => `${op.operationId} ${status}`),
  );
  const hit = documented.filter((key) => s.covered.has(key));
  const operations = s.contract.operations.filter((op) =>
    [...op.responses.keys()].some((status) => s.covered.has(`${op.operationId} ${status}`) && status.startsWith('2')),
  ).length;
  const line = `conformance coverage: ${hit.length}/${documented.length} responses, ${operations}/${s.contract.operations.length} operations`;
  return {
    responses: hit.length,
    responsesTotal: documented.length,
    operations,
    operationsTotal: s.contract.operations.length,
    missing: documented.filter((key) => !s.covered.has(key)),
    line,
  };
}

export function counts(s: Session) {
  const c = { pass: 0, fail: 0, skip: 0 };
  for (const r of s.results) c[r.outcome] += 1;
  return c;
}

export function summary(s: Session, verbose = false): string {
  const lines: string[] = [];
  const byOp = new Map<string, typeof s.results>();
  for (const r of s.results) byOp.set(r.operationId, [...(byOp.get(r.operationId) ?? []), r]);
  lines.push(
    `Conformance of ${s.options.baseUrl} (profile ${s.options.profile ?? 'server'}; capabilities: ${[...s.capabilities].join(', ') || 'none'})`,
    '',
  );
  for (const [op, results] of byOp) {
    const c = { pass: 0, fail: 0, skip: 0 };
    for (const r of results) c[r.outcome] += 1;
    const mark = c.fail > 0 ? 'FAIL' : c.pass > 0 ? 'ok  ' : 'skip';
    lines.push(`${mark} ${op.padEnd(28)} ${c.pass} passed, ${c.fail} failed, ${c.skip} skipped`);
    const reasons = new Map<string, number>();
    for (const r of results) {
      if (r.outcome === 'fail') {
        lines.push(`     ✗ ${r.rule}`, `       ${r.message ?? ''}`);
        if (r.exchange) lines.push(...r.exchange.split('\n').map((l) => `       ${l}`));
      } else if (r.outcome === 'skip') {
        const reason = verbose ? `${r.rule}: ${r.message}` : (r.message ?? '');
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      }
    }
    for (const [reason, n] of reasons) lines.push(`     - skipped${n > 1 ? ` ×${n}` : ''}: ${reason}`);
  }
  const c = counts(s);
  const cov = coverage(s);
  lines.push('', `${c.pass} passed, ${c.fail} failed, ${c.skip} skipped`);
  if (verbose && cov.missing.length > 0) lines.push(`responses not exercised: ${cov.missing.join(', ')}`);
  lines.push(cov.line);
  return lines.join('\n');
}

const xml = (text: string) =>
  text
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string)
    // XML 1.0 forbids most control characters: drop them (tab, newline and carriage return stay)
    .split('')
    .filter((c) => c >= ' ' || c === '\t' || c === '\n' || c === '\r')
    .join('');

export function junit(s: Session, name = 'conformance'): string {
  const byOp = new Map<string, typeof s.results>();
  for (const r of s.results) byOp.set(r.operationId, [...(byOp.get(r.operationId) ?? []), r]);
  const c = counts(s);
  const suites = [...byOp].map(([op, results]) => {
    const failures = results.filter((r) => r.outcome === 'fail').length;
    const skipped = results.filter((r) => r.outcome === 'skip').length;
    const cases = results.map((r) => {
      const inner =
        r.outcome === 'fail'
          ? `<failure message="${xml(r.message ?? '')}">${xml(`${r.message ?? ''}\n${r.exchange ?? ''}`)}</failure>`
          : r.outcome === 'skip'
            ? `<skipped message="${xml(r.message ?? '')}"/>`
            : '';
      return `    <testcase classname="${xml(op)}" name="${xml(r.rule)}">${inner}</testcase>`;
    });
    return `  <testsuite name="${xml(op)}" tests="${results.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(name)}" tests="${s.results.length}" failures="${c.fail}" skipped="${c.skip}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export function writeReports(s: Session, dir: string, name = 'conformance'): { summary: string; junit: string } {
  mkdirSync(dir, { recursive: true });
  const files = { summary: path.join(dir, `${name}-summary.txt`), junit: path.join(dir, `${name}-junit.xml`) };
  writeFileSync(files.summary, `${summary(s, true)}\n`);
  writeFileSync(files.junit, junit(s, name));
  return files;
}
