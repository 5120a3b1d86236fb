// What the CLI prints without --json (issue 25): a list as a table, not raw JSON inside `data: […]`; help lines that
// say a default once; --window only on the commands that move chunks.
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerDriveCommands } from '../../../cli/drive.js';
import { registerDocsCommands } from '../../../cli/docs.js';
import { output } from '../../../cli/output.js';
import { registerWebhookCommands } from '../../../cli/webhooks.js';

function printed(result: object, json = false): string {
  const chunks: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    output(result, { json });
  } finally {
    write.mockRestore();
  }
  return chunks.join('');
}

function allCommands(register: (program: Command, out: typeof output) => void): Command[] {
  const program = new Command('folio');
  register(program, output);
  const walk = (command: Command): Command[] => [command, ...command.commands.flatMap(walk)];
  return walk(program);
}

afterEach(() => vi.restoreAllMocks());

describe('folio output', () => {
  it('prints a list as a table with a header row, and scalars as key: value', () => {
    const text = printed({
      data: [
        { uuid: 'u1', url: 'https://a.example/hook', status: 'enabled', events: ['drive.*'] },
        { uuid: 'u2', url: 'https://b.example/x', status: 'paused', events: [] },
      ],
    });
    expect(text).toBe(
      [
        'uuid  url                     status   events',
        'u1    https://a.example/hook  enabled  ["drive.*"]',
        'u2    https://b.example/x     paused   []',
        '',
      ].join('\n'),
    );
    expect(printed({ uuid: 'u1', count: 2, data: [] })).toBe('uuid: u1\ncount: 2\ndata: (none)\n');
    expect(printed({ data: [{ a: 1 }] }, true)).toBe('{"data":[{"a":1}]}\n');
  });

  it('says a default once in help, and offers --window only where chunks move', () => {
    const commands = [registerDriveCommands, registerDocsCommands, registerWebhookCommands].flatMap(
      allCommands,
    );
    for (const command of commands) {
      for (const option of command.options)
        if (option.defaultValue !== undefined)
          expect(option.description, `${command.name()} ${option.long}`).not.toMatch(/\(default/);
    }
    const withWindow = commands
      .filter((command) => command.options.some((option) => option.long === '--window'))
      .map((command) => command.name());
    expect(withWindow.sort()).toEqual(['cat', 'get', 'put', 'sync']);
  });
});
