// A ChatOut that records what the chat handler writes, in order, so tests
// can check the streamed parts, anchors and references.
import type { ChatOut } from '../chat';
import type { AnswerSource } from '../render';

export type Event = { kind: 'progress' | 'markdown'; text: string } | { kind: 'anchor' | 'reference'; source: AnswerSource };

export class Recorder implements ChatOut {
  readonly events: Event[] = [];
  progress(text: string): void {
    this.events.push({ kind: 'progress', text });
  }
  markdown(text: string): void {
    this.events.push({ kind: 'markdown', text });
  }
  anchor(source: AnswerSource): void {
    this.events.push({ kind: 'anchor', source });
  }
  reference(source: AnswerSource): void {
    this.events.push({ kind: 'reference', source });
  }
  /** The response as the user reads it: markdown, with anchors as their labels. */
  text(): string {
    return this.events.map((e) => (e.kind === 'markdown' ? e.text : e.kind === 'anchor' ? `[${e.source.label}]` : '')).join('');
  }
  of(kind: Event['kind']): Event[] {
    return this.events.filter((e) => e.kind === kind);
  }
}
