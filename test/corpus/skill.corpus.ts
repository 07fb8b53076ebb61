// `mcp skill` on every CLI of the corpus: the skill's frontmatter is valid, and every command a server of that CLI can
// reach (what `mcp tools --json` reports) is in exactly one reference file, and nothing else is: no hidden command,
// none that manages the CLI itself (plugins install, update, autocomplete), none of the server's own.
import {afterAll, describe, expect, it} from '@jest/globals'
import {mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {parse} from 'yaml'

import {REFERENCE_FILE_BUDGET} from '../../src/skill/agent-skill.js'
import {CORPUS, nodeOf, prepare, runCli, scriptOf} from './clis.js'

const space = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-skill-corpus-')))
afterAll(() => rmSync(space, {force: true, recursive: true}))

describe.each(CORPUS.map((cli) => [cli.package, cli] as const))('%s', (_label, cli) => {
  const mcp = (command: string) => (cli.separator === ' ' ? ['mcp', command] : [`mcp:${command}`])

  it('gets a skill with every command it serves in exactly one reference file, and nothing else', async () => {
    const env = prepare(cli, join(space, cli.name, 'home'))
    const dir = join(space, cli.name, 'skill')
    const written = await runCli(nodeOf(cli), [scriptOf(cli), ...mcp('skill'), '--dir', dir, '--write'], env, space)
    expect([written.code, written.stderr.slice(-400)]).toEqual([0, expect.any(String)])
    const tools = await runCli(nodeOf(cli), [scriptOf(cli), ...mcp('tools'), '--json'], env, space)
    const served = (JSON.parse(tools.stdout) as {commands: {id: string}[]; notListed: {id: string; reason: string}[]})

    const skill = readFileSync(join(dir, 'SKILL.md'), 'utf8')
    const [, yaml] = /^---\n([\s\S]*?)\n---\n/.exec(skill) ?? []
    const front = parse(yaml) as {description: string; name: string}
    expect(front.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    expect(front.name.length).toBeLessThanOrEqual(64)
    expect(front.description.length).toBeLessThanOrEqual(1024)

    const heading = new RegExp(`^## \`${cli.bin.replaceAll(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`)} (.+)\`$`, 'gm')
    const where = new Map<string, number>()
    for (const file of readdirSync(join(dir, 'references'))) {
      for (const [, id] of readFileSync(join(dir, 'references', file), 'utf8').matchAll(heading)) where.set(id, (where.get(id) ?? 0) + 1)
    }

    expect([...where.keys()].sort()).toEqual(served.commands.map((c) => c.id).sort())
    expect([...where.values()].filter((n) => n !== 1)).toEqual([])
    const outside = served.notListed.filter((n) => /hidden|manages the CLI itself|the MCP server itself/.test(n.reason)).map((n) => n.id)
    expect(outside.filter((id) => where.has(id))).toEqual([])

    // Every reference file is one an agent can read at once: within the budget, unless one command's section alone
    // is larger; flags a base class gives many commands are described once, in shared-flags.md, each linked.
    const sizes = readdirSync(join(dir, 'references')).map((file) => readFileSync(join(dir, 'references', file), 'utf8'))
    for (const text of sizes) {
      const sections = text.split(/\n(?=## `)/).slice(1)
      if (sections.length > 1) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(REFERENCE_FILE_BUDGET + 4096)
    }

    for (const file of readdirSync(join(dir, 'references'))) expect(skill).toContain(`](references/${file})`)
  })
})
