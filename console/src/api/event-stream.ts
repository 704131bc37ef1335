/** One Server-Sent Event (the fields the notification stream uses). */
export interface ServerEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` incrementally, as the HTML standard's parsing rules say: lines end with LF,
 * CR or CRLF (split across chunks too); `:` starts a comment; an empty line dispatches the event; `data`
 * lines join with LF; an event without data is dropped. Push text in with `push`, get finished events back.
 */
export class EventStreamParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private lastId: string | undefined;
  /** A CR ended the last chunk: an LF starting the next belongs to it. */
  private pendingCr = false;

  push(chunk: string): ServerEvent[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const events: ServerEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (char !== '\n' && char !== '\r') continue;
      this.line(this.buffer.slice(start, i), events);
      if (char === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** The id of the last event dispatched, for `Last-Event-ID` on reconnection. */
  lastEventId(): string | undefined {
    return this.lastId;
  }

  private line(line: string, events: ServerEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        events.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        if (this.id !== undefined) this.lastId = this.id;
      }
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}
