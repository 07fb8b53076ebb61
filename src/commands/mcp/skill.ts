import {Flags} from '@oclif/core'

import {resolve} from 'node:path'

import {currentPlace} from '../../clients/client-specs.js'
import {ClientConfigError} from '../../clients/config-file-update.js'
import {checkSkillTarget, SKILL_CLIENTS, SKILL_SCOPES, skillDir, type SkillWrite, writeSkill} from '../../skill/skill-install.js'
import {HostCommand} from '../../host/command.js'
import {isWithin} from '../../host/paths.js'
import {agentSkill} from '../../skill/agent-skill.js'
import {planServerFor} from '../../mcp/lifecycle.js'
import {serverFlags} from '../../settings/server-options.js'

interface SkillResult {
  description: string
  dir: string
  files: {bytes: number; path: string}[]
  name: string
  written?: SkillWrite
}

const WRITTEN = {added: 'Wrote', unchanged: 'Already up to date:', updated: 'Updated'}

export default class McpSkill extends HostCommand {
  static summary = "Print (or write) an Agent Skill for this CLI: SKILL.md and a reference per topic, from the CLI's own metadata."
  static description = `Agents that read Agent Skills (Claude Code, Codex and others) can drive this CLI from a shell, loading a skill's text only when a task needs it. The skill covers exactly the commands an MCP server of this CLI would reach (never hidden ones, nor those that manage the CLI itself; with --read-only only the read-only ones; --exclude and --profile's exclusions apply): SKILL.md says when to use the CLI and how to run it safely (non-interactively, --json where a command has it, destructive commands only once the person has said yes), and references/<topic>.md holds each command's usage, arguments, flags and examples.

Without --write it prints SKILL.md, and on stderr where the skill would go and its files. --write installs it where the client reads skills: for Claude Code a project's .claude/skills/<name>/ (--scope user: ~/.claude/skills/<name>/), for Gemini CLI ~/.gemini/skills/<name>/ (--scope project: .gemini/skills/<name>/), for Codex ~/.codex/skills/<name>/; --dir names another folder. The skill's folder is written as a whole; a previous version is kept as <folder>.<time>.bak (its SKILL.md renamed, so no agent loads it), and a folder with files but no SKILL.md is refused.`
  static enableJsonFlag = true
  static examples = [
    {command: '<%= config.bin %> <%= command.id %>', description: 'Print SKILL.md, and where it would go'},
    {command: '<%= config.bin %> <%= command.id %> --write', description: "Install it for Claude Code in this project's .claude/skills"},
    {command: '<%= config.bin %> <%= command.id %> --client codex --read-only --write', description: 'A read-only skill for Codex'},
  ]
  static flags = {
    client: Flags.option({default: 'claude-code' as const, description: 'The client whose skills folder --write uses.', options: SKILL_CLIENTS})(),
    dir: Flags.string({description: "Write the skill into this folder instead of the client's."}),
    exclude: serverFlags.exclude,
    profile: serverFlags.profile,
    'read-only': serverFlags['read-only'],
    scope: Flags.option({description: "project (the current directory's skills folder; Claude Code's default) or user (the user's; the default of the others).", options: SKILL_SCOPES})(),
    write: Flags.boolean({description: 'Write the skill (a previous version is kept as a backup).'}),
  }

  async run(): Promise<SkillResult> {
    const {flags} = await this.parse(McpSkill)
    if (flags.scope === 'project' && flags.client === 'codex') this.error('Codex reads skills from ~/.codex/skills only: --scope project is for Claude Code.', {exit: 2})
    // The projection a server would serve: the same boundary and read-only rules.
    const skill = agentSkill(this.config, planServerFor(this, flags).projection)

    const dir = flags.dir ? resolve(flags.dir) : skillDir(flags.client, skill.name, currentPlace(), flags.scope)
    const files = skill.files.map((file) => ({bytes: Buffer.byteLength(file.text), path: file.path}))
    const result: SkillResult = {description: skill.description, dir, files, name: skill.name}
    if (!flags.write) {
      if (!this.jsonEnabled()) {
        this.logToStderr(`# The skill "${skill.name}": ${files.length} files, ${Math.round(files.reduce((sum, f) => sum + f.bytes, 0) / 1024)} KB, for ${dir} (run again with --write):`)
        this.logToStderr(files.map((f) => `#   ${f.path}`).join('\n'))
        this.log(skill.files[0].text.trimEnd())
      }

      return result
    }

    let written: SkillWrite
    try {
      // A folder of the project (a project skill, or --dir inside it) must stay inside it, links followed.
      const place = currentPlace()
      await checkSkillTarget(dir, place, place.cwd !== place.home && isWithin(dir, place.cwd) ? place.cwd : undefined)
      written = await writeSkill(dir, skill.files)
    } catch (error) {
      if (!(error instanceof ClientConfigError)) throw error
      this.error(`Cannot write the skill to ${dir}: ${error.message}. Nothing was changed.`, {code: error.code, exit: 1})
    }

    const backup = written.backup ? ` (the previous version kept as ${written.backup})` : ''
    this.log(`${WRITTEN[written.status]} the skill "${skill.name}" in ${dir}: ${files.length} files${backup}`)
    return {...result, written}
  }
}
