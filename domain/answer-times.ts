// Timestamps read for an answer as the text the answer carries. pg turns every timestamptz into a Date (a regular
// expression, a Date and its number per value), and a presenter prints it back with toISOString: on a first-sync page
// of 1,000 items that round trip was the most expensive thing done to a row after decoding it. A read that only answers
// its timestamps asks for them as text instead (`withAnswerTimes`), turned into the same ISO 8601 form directly.
import pg from 'pg';

const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ;
const readAsDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date;

/**
 * PostgreSQL's timestamptz text in UTC ("2026-11-28 08:05:00.123456+00"; the fraction loses its trailing zeros, and is
 * left out when zero) as Date.toISOString prints the same instant: "2026-11-28T08:05:00.123Z", milliseconds truncated.
 * Any other form (another time zone, a year past 9999, BC, infinity) goes through pg's Date.
 */
export function answerTimeOf(text: string): string {
  const simple =
    text.length >= 22 &&
    text.length <= 29 &&
    text.charCodeAt(4) === 45 && // -
    text.charCodeAt(10) === 32 && // space
    text.endsWith('+00');
  if (!simple) return readAsDate(text).toISOString();
  const milliseconds = text.charCodeAt(19) === 46 /* . */ ? `${text.slice(20, -3)}00`.slice(0, 3) : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${milliseconds}Z`;
}

/** A timestamp as a read gave it: a Date, or where the read asked for answer times, their ISO 8601 text. */
export type ReadTime = Date | string;

/** The ISO 8601 text an answer carries for a timestamp, however it was read. */
export const answeredTime = (time: ReadTime): string =>
  typeof time === 'string' ? time : time.toISOString();

/**
 * pg's type parsers for one query (knex `.options(withAnswerTimes)`): timestamptz columns arrive as answer text
 * (answerTimeOf), every other type as usual.
 */
export const withAnswerTimes = {
  types: {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === TIMESTAMPTZ && format !== 'binary'
        ? answerTimeOf
        : pg.types.getTypeParser(oid, format as 'text'),
  },
};
