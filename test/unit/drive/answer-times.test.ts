// Timestamps read as answer text (domain/answer-times.ts): PostgreSQL's UTC text printed exactly as Date.toISOString
// prints the same instant, and every other form left to pg's Date.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { answeredTime, answerTimeOf } from '../../../domain/answer-times.js';

const viaDate = (text: string) =>
  (pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (t: string) => Date)(text).toISOString();

describe('answerTimeOf', () => {
  it.each([
    ['2026-11-28 08:05:00+00', '2026-11-28T08:05:00.000Z'],
    ['2026-11-28 08:05:00.1+00', '2026-11-28T08:05:00.100Z'],
    ['2026-11-28 08:05:00.12+00', '2026-11-28T08:05:00.120Z'],
    ['2026-11-28 08:05:00.123+00', '2026-11-28T08:05:00.123Z'],
    ['2026-11-28 08:05:00.1234+00', '2026-11-28T08:05:00.123Z'],
    ['2026-11-28 08:05:00.999999+00', '2026-11-28T08:05:00.999Z'],
    ['2026-11-28 08:05:00.000001+00', '2026-11-28T08:05:00.000Z'],
  ])('prints %s as %s, as the Date would', (text, iso) => {
    expect(answerTimeOf(text)).toBe(iso);
    expect(viaDate(text)).toBe(iso);
  });

  it.each([
    '2026-11-28 09:05:00.123+01',
    '2026-11-28 13:35:00.5+05:30',
    '2026-11-28 03:05:00-05',
    '12026-11-28 08:05:00+00',
    '0044-03-15 12:00:00+00 BC',
  ])('leaves %s to the Date, which knows its offset and era', (text) => {
    expect(answerTimeOf(text)).toBe(viaDate(text));
  });

  it('agrees with the Date for every fraction length on random instants', () => {
    for (let i = 0; i < 2000; i++) {
      const date = new Date(Date.UTC(1970 + (i % 60), i % 12, 1 + (i % 28), i % 24, i % 60, (i * 7) % 60));
      const micros = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
      const digits = micros.slice(0, 1 + (i % 6)).replace(/0+$/, '');
      const text = `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)}${digits ? `.${digits}` : ''}+00`;
      expect(answerTimeOf(text), text).toBe(viaDate(text));
    }
  });
});

describe('answeredTime', () => {
  it('prints a Date and passes answer text through', () => {
    const date = new Date('2026-11-28T08:05:00.123Z');
    expect(answeredTime(date)).toBe('2026-11-28T08:05:00.123Z');
    expect(answeredTime('2026-11-28T08:05:00.123Z')).toBe('2026-11-28T08:05:00.123Z');
  });
});
