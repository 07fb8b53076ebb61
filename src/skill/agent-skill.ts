import type {Config} from '@oclif/core'

import type {CommandTool} from '../tools/catalog/registry.js'
import type {Projection} from '../tools/exposure/projection.js'

import {argLine, bullet, commandDetails, flagLine, usageLines} from '../tools/catalog/command-reference.js'
import {cliPurpose} from '../tools/catalog/cli-purpose.js'

// An Agent Skill generated from the CLI's own metadata: SKILL.md (when to use the CLI, and how to run it safely from a
// shell) and one reference file per topic, covering exactly the commands inside the server's boundary (the same
// projection the server serves: hidden, self-management and excluded commands never appear; with --read-only only
// the read-only ones). Agents that read skills load SKILL.md's frontmatter up front and the rest only when needed.

/** The frontmatter limits of the Agent Skills format. */
export const SKILL_NAME_MAX = 64
export const SKILL_DESCRIPTION_MAX = 1024

export interface SkillFile {
  /** Relative to the skill's folder, `/`-separated. */
  path: string
  text: string
}

export interface AgentSkill {
  description: string
  files: SkillFile[]
  name: string
}

/** A skill name as the format allows it: lowercase letters, digits and single hyphens, at most 64 characters. */
export function skillName(bin: string): string {
  const name = bin
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, '-')
    .replaceAll(/^-+|-+$/g, '')
    .slice(0, SKILL_NAME_MAX)
    .replace(/-+$/, '')
  return name || 'cli'
}

/** Cuts text to `max` characters at a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:]+$/, '')}…`
}

/** The topic a command belongs to: its first word (a command without one is in "top-level"). */
function topicOf(tool: CommandTool): string {
  const [first, ...rest] = tool.id.split(':')
  return rest.length > 0 ? first : 'top-level'
}

/** A file name for a topic: what it is, made safe (and unique among the others). */
function fileNames(topics: readonly string[]): Map<string, string> {
  const used = new Set<string>()
  const names = new Map<string, string>()
  for (const topic of topics) {
    const base = topic.toLowerCase().replaceAll(/[^a-z0-9_.-]+/g, '-').replace(/^[.-]+/, '') || 'topic'
    let name = base
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`
    used.add(name)
    names.set(topic, `references/${name}.md`)
  }

  return names
}

/** Commands named per topic in SKILL.md (the rest are in the topic's file): SKILL.md stays short on large CLIs. */
const TOPIC_NAMES_SHOWN = 8

/** How running one command stands: what it may do, as the server labels it. */
function label(tool: CommandTool): string {
  if (tool.hints.destructiveHint) return 'destructive: ask the person first'
  if (!tool.hints.readOnlyHint) return 'may change things'
  return 'read-only'
}

/** A flag documented once, in SHARED_FLAGS_FILE, when this many commands (and a quarter of them) take it the same. */
const SHARED_FLAG_MIN = 5
const SHARED_FLAGS_FILE = 'references/shared-flags.md'
/**
 * The most a reference file holds: a topic with more is split into numbered parts, each a file an agent can read at
 * once (anypoint's base-class flags made one topic file 98 KB).
 */
export const REFERENCE_FILE_BUDGET = 40 * 1024

/** Flags many commands take alike (the same line in their help: a base class's), by their line. */
function sharedFlagLines(tools: readonly CommandTool[], config: Config): Map<string, string> {
  const counts = new Map<string, {count: number; name: string}>()
  for (const tool of tools) {
    for (const flag of commandDetails(tool, config, new Set()).flags) {
      const line = flagLine(flag)
      counts.set(line, {count: (counts.get(line)?.count ?? 0) + 1, name: flag.name})
    }
  }

  const least = Math.max(SHARED_FLAG_MIN, Math.ceil(tools.length / 4))
  return new Map([...counts].filter(([, {count}]) => count >= least).map(([line, {name}]) => [line, name]))
}

/**
 * One command's section of a topic file: what `<bin> <id> --help` says, and how it stands; its shared flags named,
 * with a link (`sharedLink`, relative to the topic file) to where they are described.
 */
function commandSection(tool: CommandTool, config: Config, shared: ReadonlyMap<string, string>, sharedLink: string): string {
  // A skill is read by an agent with a shell: which tools a server lists does not enter into it.
  const d = commandDetails(tool, config, new Set())
  const parts = [`## \`${config.bin} ${d.id}\``, `${d.summary || d.description.split('\n')[0] || ''} *(${label(tool)}${d.jsonOutput ? '; `--json`' : ''})*`.trim()]
  if (d.description && d.description !== d.summary) parts.push(d.description)
  parts.push(['```sh', ...usageLines(d, config.bin), '```'].join('\n'))
  if (d.args.length > 0) parts.push(`Arguments:\n${bullet(d.args.map((a) => argLine(a)))}`)
  const own = d.flags.filter((f) => !shared.has(flagLine(f)))
  const common = d.flags.filter((f) => shared.has(flagLine(f)))
  if (own.length > 0) parts.push(`Flags:\n${bullet(own.map((f) => flagLine(f)))}`)
  if (common.length > 0) parts.push(`Also the [shared flags](${sharedLink}) ${common.map((f) => `\`--${f.name}\``).join(', ')}.`)
  if (tool.withheldFlags.length > 0) {
    parts.push(`Not read-only with: ${tool.withheldFlags.map((w) => `\`--${w.name}\``).join(', ')} (the server leaves these out; run them only when the person asks).`)
  }

  if (d.examples.length > 0) parts.push(['Examples:', '```sh', ...d.examples, '```'].join('\n'))
  return parts.join('\n\n')
}

/**
 * The skill for the commands inside `projection`'s boundary. Every such command is in exactly one reference file
 * (its topic's), in id order; SKILL.md names each topic's file and the destructive commands.
 */
export function agentSkill(config: Config, projection: Projection): AgentSkill {
  const tools = [...projection.executable.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  const byTopic = new Map<string, CommandTool[]>()
  for (const tool of tools) byTopic.set(topicOf(tool), [...(byTopic.get(topicOf(tool)) ?? []), tool])
  const topics = [...byTopic.keys()].sort((a, b) => (a === 'top-level' ? -1 : b === 'top-level' ? 1 : a < b ? -1 : 1))
  const files = fileNames(topics)
  const {bin} = config
  const what = (config.pjson as {description?: string}).description?.trim().replace(/\.$/, '')
  const readOnly = projection.readOnly
  const destructive = tools.filter((t) => t.hints.destructiveHint)

  const name = skillName(bin)
  const description = clip(cliPurpose(config, projection, readOnly, 'which command does what, its flags, and how to run it without prompts and safely'), SKILL_DESCRIPTION_MAX)

  // Flags a base class gives many commands are said once; a topic larger than a reference file can hold is split.
  const shared = sharedFlagLines(tools, config)
  const sharedFile: SkillFile | undefined =
    shared.size > 0
      ? {path: SHARED_FLAGS_FILE, text: `# ${bin}: shared flags\n\nFlags many ${bin} commands take alike; each command's section names the ones it takes.\n\n${bullet([...shared.keys()])}\n`}
      : undefined
  const references: SkillFile[] = []
  const partsOf = new Map<string, string[]>()
  for (const topic of topics) {
    const title = `# ${bin}: ${topic === 'top-level' ? 'top-level commands' : `the ${topic} topic`}`
    const sections = byTopic.get(topic)!.map((tool) => commandSection(tool, config, shared, 'shared-flags.md'))
    const parts: string[][] = [[]]
    let size = title.length
    for (const section of sections) {
      if (parts.at(-1)!.length > 0 && size + section.length > REFERENCE_FILE_BUDGET) {
        parts.push([])
        size = title.length
      }

      parts.at(-1)!.push(section)
      size += section.length + 2
    }

    const base = files.get(topic)!
    const paths = parts.map((_, n) => (n === 0 ? base : base.replace(/\.md$/, `-${n + 1}.md`)))
    partsOf.set(topic, paths)
    for (const [n, part] of parts.entries()) {
      const heading = parts.length > 1 ? `${title} (part ${n + 1} of ${parts.length})` : title
      references.push({path: paths[n], text: `${heading}\n\n${part.join('\n\n')}\n`})
    }
  }

  const jsonCount = tools.filter((t) => t.json).length
  const body = [
    `# ${bin}`,
    `${what ? `${what}.` : ''} ${tools.length} commands in ${topics.length} ${topics.length === 1 ? 'topic' : 'topics'}, each documented in the reference file of its topic (below). \`${bin} <command> --help\` prints the same from the CLI itself (version ${config.version}).`.trim(),
    '## Running it safely',
    bullet([
      `Run commands non-interactively: give every value as a flag or argument. A command that asks a question waits for an answer nobody gives; stop it and pass the answer as a flag instead.`,
      ...(jsonCount > 0 ? [`Prefer \`--json\` where a command has it (${jsonCount} of ${tools.length} do, marked \`--json\` in the references): its output is meant to be read by a program; the text form may change.`] : []),
      `Run it in the directory it is about: many commands read the project they are run in.`,
      readOnly
        ? `Only the read-only commands are documented here, and only they are to be run: do not run any other ${bin} command, even one you know.`
        : `Commands marked *may change things* change state (files, accounts, remote services). Say what you are about to run first. Commands marked *destructive* delete or overwrite: show the person the exact command line and run it only once they have said yes.`,
      `Commands that manage ${bin} itself (installing plugins, updating, shell set-up) are left out on purpose: do not run them.`,
    ]),
    ...(sharedFile ? [`Flags many commands take alike are described once, in [shared flags](${SHARED_FLAGS_FILE}).`] : []),
    ...(destructive.length > 0 && !readOnly
      ? ['## Destructive commands (ask first)', `${destructive.map((t) => `\`${t.displayId}\``).join(', ')}: run none of these before the person has seen the command line and said yes.`]
      : []),
    '## Reference, by topic',
    bullet(
      topics.map((topic) => {
        const all = byTopic.get(topic)!
        const named = all.slice(0, TOPIC_NAMES_SHOWN).map((t) => `\`${t.displayId}\``)
        const [first, ...more] = partsOf.get(topic)!
        const links = more.length > 0 ? ` (parts: ${[first, ...more].map((path, n) => `[${n + 1}](${path})`).join(', ')})` : ''
        return `[${topic}](${first})${links} (${all.length}): ${named.join(', ')}${all.length > named.length ? ` and ${all.length - named.length} more` : ''}`
      }),
    ),
  ]
  // Both quoted: a bin named `yes` or `123` would otherwise read as a boolean or a number.
  const skill = `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n---\n\n${body.join('\n\n')}\n`
  return {description, files: [{path: 'SKILL.md', text: skill}, ...(sharedFile ? [sharedFile] : []), ...references], name}
}
