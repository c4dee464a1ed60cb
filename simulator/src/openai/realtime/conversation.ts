import { isRealtimeProblem, problems, type RealtimeProblem } from './realtimeErrors';
import type { ContentPart, MessageItem } from './realtimeEvents';
import { realtimeId } from './realtimeIds';
import { isObject } from './realtimeParams';

/** An item of response.create's `input`: a message, or a reference to an item of the conversation. */
export type InputItem = MessageItem | { type: 'item_reference'; id: string };

/** The content types each role may send (RealtimeConversationItem{User,System,Assistant}Message). */
const ROLE_CONTENT_TYPES: Record<MessageItem['role'], readonly ContentPart['type'][]> = {
  user: ['input_text', 'input_audio', 'input_image'],
  system: ['input_text'],
  assistant: ['output_text', 'output_audio'],
};

/** The default conversation of a session: its items in order. */
export class Conversation {
  readonly id = realtimeId('conv');
  private items: MessageItem[] = [];

  /**
   * Adds an item after `previousItemId` (`root`: first), else at the end; answers the id of the item
   * before it, or the problem when `previousItemId` names no item.
   */
  insert(item: MessageItem, previousItemId?: string): { previousItemId: string | null } | RealtimeProblem {
    if (previousItemId === undefined) {
      const previous = this.items.at(-1)?.id ?? null;
      this.items.push(item);
      return { previousItemId: previous };
    }
    if (previousItemId === 'root') {
      this.items.unshift(item);
      return { previousItemId: null };
    }
    const index = this.items.findIndex((candidate) => candidate.id === previousItemId);
    if (index === -1) return itemNotFound(previousItemId, 'previous_item_id');
    this.items.splice(index + 1, 0, item);
    return { previousItemId };
  }

  delete(itemId: string): RealtimeProblem | undefined {
    const before = this.items.length;
    this.items = this.items.filter((item) => item.id !== itemId);
    return this.items.length === before ? itemNotFound(itemId, 'item_id') : undefined;
  }

  find(itemId: string): MessageItem | undefined {
    return this.items.find((item) => item.id === itemId);
  }

  all(): readonly MessageItem[] {
    return this.items;
  }

  /** The items a response's `input` stands for, references resolved against this conversation. */
  resolve(input: readonly InputItem[]): MessageItem[] | RealtimeProblem {
    const items: MessageItem[] = [];
    for (const item of input) {
      if (item.type === 'message') {
        items.push(item);
        continue;
      }
      const referenced = this.find(item.id);
      if (referenced === undefined) return itemNotFound(item.id, 'response.input');
      items.push(referenced);
    }
    return items;
  }
}

/**
 * A message item as a client sends it (conversation.item.create's `item`, an entry of response.create's
 * `input`), given an id when it has none. Only messages are simulated: there are no tools to call.
 */
export function parseMessageItem(value: unknown, param: string): MessageItem | RealtimeProblem {
  if (!isObject(value)) return problems.invalidType(param, value, 'an object');
  const { id, type, role, content } = value;
  if (type !== 'message') return problems.invalidValue(`${param}.type`, type, ['message']);
  if (role !== 'user' && role !== 'system' && role !== 'assistant') {
    return problems.invalidValue(`${param}.role`, role, ['user', 'system', 'assistant']);
  }
  if (id !== undefined && typeof id !== 'string') return problems.invalidType(`${param}.id`, id, 'a string');
  if (!Array.isArray(content)) return problems.invalidType(`${param}.content`, content, 'an array');
  const parts: ContentPart[] = [];
  for (const [index, part] of content.entries()) {
    const parsed = parseContentPart(part, role, `${param}.content[${index}]`);
    if (isRealtimeProblem(parsed)) return parsed;
    parts.push(parsed);
  }
  return { id: id ?? realtimeId('item'), object: 'realtime.item', type, status: 'completed', role, content: parts };
}

export function parseInputItem(value: unknown, param: string): InputItem | RealtimeProblem {
  if (isObject(value) && value.type === 'item_reference') {
    return typeof value.id === 'string'
      ? { type: 'item_reference', id: value.id }
      : problems.invalidType(`${param}.id`, value.id, 'a string');
  }
  return parseMessageItem(value, param);
}

function parseContentPart(value: unknown, role: MessageItem['role'], param: string): ContentPart | RealtimeProblem {
  if (!isObject(value)) return problems.invalidType(param, value, 'an object');
  const allowed = ROLE_CONTENT_TYPES[role];
  const type = allowed.find((candidate) => candidate === value.type);
  if (type === undefined) return problems.invalidValue(`${param}.type`, value.type, allowed);
  switch (type) {
    case 'input_text':
    case 'output_text':
      return typeof value.text === 'string'
        ? { type, text: value.text }
        : problems.invalidType(`${param}.text`, value.text, 'a string');
    case 'input_audio':
      return typeof value.audio === 'string'
        ? { type, audio: value.audio, transcript: null }
        : problems.invalidType(`${param}.audio`, value.audio, 'a string');
    case 'input_image':
      return typeof value.image_url === 'string'
        ? { type, image_url: value.image_url }
        : problems.invalidType(`${param}.image_url`, value.image_url, 'a string');
    case 'output_audio':
      return typeof value.transcript === 'string'
        ? { type, transcript: value.transcript }
        : problems.invalidType(`${param}.transcript`, value.transcript, 'a string');
  }
}

function itemNotFound(itemId: string, param: string): RealtimeProblem {
  return { message: `Item with item_id not found: ${itemId}`, param, code: 'item_not_found' };
}
