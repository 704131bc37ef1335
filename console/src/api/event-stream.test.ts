import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser, type ServerEvent } from './event-stream';

const parseAll = (chunks: string[]): ServerEvent[] => {
  const parser = new EventStreamParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
};

describe('EventStreamParser', () => {
  it('reads the notification stream as the server writes it', () => {
    const text =
      'retry: 5000\n\n: heartbeat\n\nid: 42\nevent: notification\ndata: {"id":42}\n\nid: 43\nevent: notification\ndata: {"id":43}\n\n';
    expect(parseAll([text])).toEqual([
      { id: '42', event: 'notification', data: '{"id":42}' },
      { id: '43', event: 'notification', data: '{"id":43}' },
    ]);
  });

  it('joins data lines, defaults the type to message, drops events without data and keeps the last id', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: a\ndata:b\n\nevent: x\n\nid: 7\ndata\n\n')).toEqual([
      { id: undefined, event: 'message', data: 'a\nb' },
      { id: '7', event: 'message', data: '' },
    ]);
    expect(parser.lastEventId()).toBe('7');
  });

  it('waits for the blank line before dispatching', () => {
    const parser = new EventStreamParser();
    expect(parser.push('id: 1\nevent: notification\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '1', event: 'notification', data: '{}' }]);
  });

  it('gives the same events however the bytes are cut into chunks, with LF, CR or CRLF line ends', () => {
    const event = fc.record({
      id: fc.option(fc.stringMatching(/^[0-9]{1,5}$/), { nil: undefined }),
      event: fc.constantFrom('notification', 'message'),
      data: fc.array(fc.stringMatching(/^[^\r\n]{0,20}$/), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.constantFrom('\n', '\r', '\r\n'),
        fc.array(fc.nat(), { maxLength: 8 }),
        (events, eol, cuts) => {
          const text = events
            .map(
              (e) =>
                [...(e.id !== undefined ? [`id: ${e.id}`] : []), `event: ${e.event}`, ...e.data.map((d) => `data: ${d}`), ''].join(eol) +
                eol,
            )
            .join('');
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let start = 0;
          for (const point of points) {
            chunks.push(text.slice(start, point));
            start = point;
          }
          chunks.push(text.slice(start));
          expect(parseAll(chunks)).toEqual(parseAll([text]));
          expect(parseAll([text]).map((e) => e.data)).toEqual(events.map((e) => e.data.join('\n')));
        },
      ),
    );
  });
});
