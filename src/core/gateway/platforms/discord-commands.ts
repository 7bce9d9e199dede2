import { ApplicationCommandOptionType, type ChatInputCommandInteraction, type RESTPutAPIApplicationCommandsJSONBody } from 'discord.js';

/**
 * The gateway's chat commands as Discord slash commands, so they show in Discord's command picker. They are
 * registered globally, best-effort (a bot without the `applications.commands` scope still works by text: `/new`
 * typed as a message reaches the gateway the same way). `/<skill-name>` is not registered: skills change at run
 * time and Discord caps an application at 100 global commands, so those stay text.
 */
export interface SlashCommand {
  /** Lower case, 1 to 32 characters, Discord's rule. */
  name: string;
  description: string;
  /** One optional text argument, passed on as the rest of the command line. */
  argument?: { name: string; description: string; required?: boolean };
}

export const DEFAULT_SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'new', description: 'Start a new conversation' },
  { name: 'stop', description: 'Stop the running turn' },
  { name: 'status', description: 'What the agent is doing and which model it uses' },
  { name: 'model', description: 'Show or switch the model', argument: { name: 'name', description: 'The model to switch to' } },
  { name: 'usage', description: 'Tokens and cost of this conversation' },
  { name: 'help', description: 'The chat commands' },
  { name: 'approve', description: 'Approve a pending request', argument: { name: 'id', description: 'The request id', required: true } },
  { name: 'deny', description: 'Deny a pending request', argument: { name: 'id', description: 'The request id', required: true } },
  { name: 'skills', description: 'The skills the agent can use' },
];

export function applicationCommands(list: readonly SlashCommand[]): RESTPutAPIApplicationCommandsJSONBody {
  return list.map((c) => ({
    name: c.name,
    description: c.description,
    type: 1, // CHAT_INPUT
    options: c.argument === undefined ? [] : [{
      type: ApplicationCommandOptionType.String,
      name: c.argument.name,
      description: c.argument.description,
      required: c.argument.required ?? false,
    }],
  }));
}

/** The command as the text line the gateway parses: `/approve ab12cd34`. */
export function slashCommandText(interaction: ChatInputCommandInteraction): string {
  const args = interaction.options.data.map((o) => (o.value === undefined ? '' : String(o.value))).filter((v) => v !== '');
  return [`/${interaction.commandName}`, ...args].join(' ');
}
