// The conformance fixture (test/fixtures/conformance-cli) reaches the suite's scenarios through the plugin's ordinary
// mechanisms only: its commands and its oclif.mcp prompts. Nothing in src/ may know a name of the suite's.
import {describe, expect, it} from '@jest/globals'
import fg from 'fast-glob'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {ROOT} from './helpers/taskbox.js'

describe('the conformance fixture', () => {
  it('is served by mechanisms src/ has anyway: no source file names a test_ tool or prompt, or a test:// resource', async () => {
    const files = await fg('src/**/*.{ts,cts}', {cwd: ROOT})
    expect(files.length).toBeGreaterThan(50)
    const knowing = files.filter((file) => /\btest_[a-z]|test:\/\//.test(readFileSync(join(ROOT, file), 'utf8')))
    expect(knowing).toEqual([])
  })

  it('provides its test_ tools as commands and its test_ prompts as author prompts', () => {
    const fixture = join(ROOT, 'test/fixtures/conformance-cli')
    const commands = fg.sync('src/commands/*.js', {cwd: fixture}).map((file) => file.slice('src/commands/'.length, -'.js'.length)).sort()
    expect(commands).toEqual(['test_error_handling', 'test_simple_text', 'test_tool_with_progress'])
    const pjson = JSON.parse(readFileSync(join(fixture, 'package.json'), 'utf8'))
    expect(Object.keys(pjson.oclif.mcp.prompts).sort()).toEqual(['test_prompt_with_arguments', 'test_simple_prompt'])
  })
})
