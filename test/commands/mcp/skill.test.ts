// `mcp skill`: the Agent Skill generated from the example CLI, checked the way an agent reads it (frontmatter, one
// reference file per topic, every command of the server's boundary in exactly one of them and nothing else), and
// how it is installed (where each client reads skills, a backup of the previous version, nothing half-written).
import {afterAll, afterEach, describe, expect, it} from '@jest/globals'
import {existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {parse} from 'yaml'

import {plain, runTaskbox, stopAll} from '../../helpers/run-cli.js'
import {scratch, taskboxEnv} from '../../helpers/taskbox.js'

const space = scratch('mcp-skill-')
const home = join(space.dir, 'home')
const project = join(space.dir, 'project')
mkdirSync(project)
const env = taskboxEnv(home)
afterEach(() => stopAll())
afterAll(() => space.cleanup())

const run = (args: string[]) => runTaskbox(['mcp', ...args], {cwd: project, env})

/** The skill's files under `dir`, by relative path. */
function filesIn(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, {recursive: true, withFileTypes: true})
      .filter((entry) => entry.isFile())
      .map((entry) => [join(entry.parentPath, entry.name).slice(dir.length + 1), readFileSync(join(entry.parentPath, entry.name), 'utf8')]),
  )
}

/** SKILL.md's frontmatter, parsed as YAML, and its body. */
function frontmatter(text: string): {body: string; data: Record<string, unknown>} {
  const found = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)
  if (!found) throw new Error('SKILL.md has no frontmatter')
  return {body: found[2], data: parse(found[1]) as Record<string, unknown>}
}

/** The commands each reference file documents (its `## \`taskbox <id>\`` headings). */
function documented(files: Record<string, string>): Map<string, string[]> {
  const where = new Map<string, string[]>()
  for (const [path, text] of Object.entries(files)) {
    if (!path.startsWith('references/')) continue
    for (const [, id] of text.matchAll(/^## `taskbox (.+)`$/gm)) where.set(id, [...(where.get(id) ?? []), path])
  }

  return where
}

/** The commands a server of the same flags can reach, as `mcp tools --json` reports them. */
async function boundary(args: string[] = []): Promise<string[]> {
  const ran = await run(['tools', '--json', ...args])
  return (JSON.parse(ran.stdout) as {commands: {id: string}[]}).commands.map((c) => c.id).sort()
}

describe('mcp skill', () => {
  it('writes a valid skill in which every command of the boundary appears in exactly one reference file', async () => {
    const dir = join(space.dir, 'skill')
    const ran = await run(['skill', '--dir', dir, '--write'])
    expect(ran.code).toBe(0)
    expect(ran.stdout).toContain(`Wrote the skill "taskbox" in ${dir}`)
    const files = filesIn(dir)
    const {body, data} = frontmatter(files['SKILL.md'])
    expect(Object.keys(data).sort()).toEqual(['description', 'name'])
    expect(data.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    expect(String(data.name).length).toBeLessThanOrEqual(64)
    expect(String(data.description).length).toBeLessThanOrEqual(1024)
    expect(data.description).toContain('Use when')

    const where = documented(files)
    expect([...where.keys()].sort()).toEqual(await boundary())
    for (const [id, paths] of where) expect({id, paths: paths.length}).toEqual({id, paths: 1})
    // Hidden and the server's own commands are never in it; each reference file is linked from SKILL.md.
    expect(JSON.stringify(files)).not.toMatch(/debug dump|taskbox mcp /)
    for (const path of Object.keys(files).filter((p) => p !== 'SKILL.md')) expect(body).toContain(`](${path})`)
    expect(body).toContain('## Destructive commands (ask first)')
    expect(body).toContain('`tasks remove`')
  })

  it('with --read-only documents the read-only commands only, and says to run nothing else', async () => {
    const dir = join(space.dir, 'skill-ro')
    expect((await run(['skill', '--dir', dir, '--write', '--read-only'])).code).toBe(0)
    const files = filesIn(dir)
    expect([...documented(files).keys()].sort()).toEqual(await boundary(['--read-only']))
    expect(files['SKILL.md']).not.toContain('Destructive commands')
    expect(files['SKILL.md']).toContain('Only the read-only commands are documented here')
    expect(JSON.stringify(files)).not.toMatch(/may change things|destructive: ask/)
  })

  it('without --write prints SKILL.md and where it would go (a project of Claude Code by default), writing nothing', async () => {
    const ran = await run(['skill'])
    expect(ran.code).toBe(0)
    expect(ran.stdout.startsWith('---\nname: "taskbox"\n')).toBe(true)
    expect(plain(ran.stderr)).toContain(`for ${join(project, '.claude/skills/taskbox')}`)
    expect(existsSync(join(project, '.claude'))).toBe(false)
  })

  it.each([
    [['--client', 'claude-code'], () => join(project, '.claude/skills/taskbox')],
    [['--client', 'claude-code', '--scope', 'user'], () => join(home, '.claude/skills/taskbox')],
    [['--client', 'gemini'], () => join(home, '.gemini/skills/taskbox')],
    [['--client', 'gemini', '--scope', 'project'], () => join(project, '.gemini/skills/taskbox')],
    [['--client', 'codex'], () => join(home, '.codex/skills/taskbox')],
  ])('%j installs it where that client reads skills', async (args, dir) => {
    const ran = await run(['skill', '--json', ...args])
    expect((JSON.parse(ran.stdout) as {dir: string}).dir).toBe(dir())
  })

  it('keeps the previous version as a backup, and leaves an unchanged skill alone', async () => {
    const dir = join(space.dir, 'skill-again')
    expect((await run(['skill', '--dir', dir, '--write'])).code).toBe(0)
    writeFileSync(join(dir, 'notes.md'), 'my own notes\n')
    const again = await run(['skill', '--dir', dir, '--write', '--json'])
    const written = (JSON.parse(again.stdout) as {written: {backup: string; status: string}}).written
    expect(written.status).toBe('updated')
    expect(readFileSync(join(written.backup, 'notes.md'), 'utf8')).toBe('my own notes\n')
    // No agent loads the old version: a skill is found by its SKILL.md.
    expect(existsSync(join(written.backup, 'SKILL.md'))).toBe(false)
    expect(existsSync(join(written.backup, 'SKILL.md.bak'))).toBe(true)
    expect(existsSync(join(dir, 'notes.md'))).toBe(false)
    const third = await run(['skill', '--dir', dir, '--write'])
    expect(third.stdout).toContain('Already up to date')
  })

  it('refuses a folder with files but no SKILL.md (the skills folder itself, a project), touching nothing', async () => {
    const skills = join(space.dir, 'skills-root')
    mkdirSync(join(skills, 'other-skill'), {recursive: true})
    writeFileSync(join(skills, 'other-skill', 'SKILL.md'), '---\nname: other\n---\n')
    const refused = await run(['skill', '--dir', skills, '--write'])
    expect(refused.code).toBe(1)
    expect(plain(refused.stderr)).toContain("not a skill's folder")
    expect(readdirSync(space.dir).filter((name) => name.startsWith('skills-root'))).toEqual(['skills-root'])
  })

  it.each([
    ['/', "the file system's root"],
    [home, 'holds your home folder'],
    [space.dir, 'holds your home folder and the current folder'],
    [project, 'holds the current folder'],
  ])('refuses --dir %s before reading anything of it', async (dir, why) => {
    mkdirSync(home, {recursive: true})
    const refused = await run(['skill', '--dir', dir, '--write'])
    expect([refused.code, plain(refused.stderr)]).toEqual([1, expect.stringContaining(why)])
    expect(existsSync(dir)).toBe(true)
    expect(readdirSync(space.dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it("refuses a project's skills folder that a planted link leads out of the project, writing nothing there", async () => {
    const cloned = join(space.dir, 'cloned')
    const elsewhere = join(space.dir, 'elsewhere')
    mkdirSync(join(cloned, '.claude'), {recursive: true})
    mkdirSync(elsewhere)
    symlinkSync(elsewhere, join(cloned, '.claude', 'skills'))
    const refused = await runTaskbox(['mcp', 'skill', '--write'], {cwd: cloned, env})
    expect([refused.code, plain(refused.stderr)]).toEqual([1, expect.stringContaining('a symbolic link on the way leads out of it')])
    expect(readdirSync(elsewhere)).toEqual([])
  })

  it('refuses a target that is not a folder, and codex with --scope project', async () => {
    const file = join(space.dir, 'a-file')
    writeFileSync(file, 'x')
    const refused = await run(['skill', '--dir', file, '--write'])
    expect(refused.code).toBe(1)
    expect(plain(refused.stderr)).toContain('not a folder')
    expect(readFileSync(file, 'utf8')).toBe('x')
    const codex = await run(['skill', '--client', 'codex', '--scope', 'project'])
    expect(codex.code).toBe(2)
  })
})
