import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponentWithCustomId } from 'discord.js';
import type { ChatAction } from '../types.js';

/** Discord's limit on a message's content, in characters. The gateway splits longer answers before sending. */
export const DISCORD_MAX_CHARS = 2000;
/** Buttons per action row and rows per message, and a button's custom_id length: Discord's limits. */
const BUTTONS_PER_ROW = 5;
const MAX_ROWS = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;

/** The text checked against Discord's limits: an error the gateway can act on beats Discord's 400 "Invalid Form Body". */
export function outgoingText(text: string): string {
  if (text.length === 0) throw new Error('a Discord message needs text (Discord refuses an empty one)');
  if (text.length > DISCORD_MAX_CHARS) throw new Error(`a Discord message holds at most ${DISCORD_MAX_CHARS} characters; this one has ${text.length} (split it first)`);
  return text;
}

/** Buttons as message components: action rows of up to five, `custom_id` = the ChatAction's id. */
export function actionRows(actions: readonly ChatAction[]): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  if (actions.length > BUTTONS_PER_ROW * MAX_ROWS) throw new Error(`a Discord message carries at most ${BUTTONS_PER_ROW * MAX_ROWS} buttons; got ${actions.length}`);
  const rows: APIActionRowComponent<APIButtonComponentWithCustomId>[] = [];
  for (let i = 0; i < actions.length; i += BUTTONS_PER_ROW) {
    rows.push({
      type: ComponentType.ActionRow,
      components: actions.slice(i, i + BUTTONS_PER_ROW).map((action) => {
        if (action.id.length === 0 || action.id.length > MAX_CUSTOM_ID) throw new Error(`a Discord button id must be 1 to ${MAX_CUSTOM_ID} characters: "${action.id}"`);
        return {
          type: ComponentType.Button,
          custom_id: action.id,
          label: action.label.slice(0, MAX_LABEL),
          style: action.style === 'danger' ? ButtonStyle.Danger : action.style === 'primary' ? ButtonStyle.Primary : ButtonStyle.Secondary,
        };
      }),
    });
  }
  return rows;
}
