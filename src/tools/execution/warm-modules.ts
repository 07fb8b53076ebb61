import type {Config} from '@oclif/core'

import {statSync} from 'node:fs'
import {join} from 'node:path'

// Which module files a warm worker imports ahead of its call (worker-entry.ts): every plugin's hook modules, and the
// modules of the commands likely to be called. Found from the host's own Config, so it works whatever @oclif/core
// the CLI runs on, also one bundled into the CLI (@shopify/cli), where a worker could not load a Config itself.

/** What a worker imports: the hooks before it says it is ready, the commands while it waits. */
export interface WarmModules {
  commands: string[]
  hooks: string[]
}

type HookEntry = string | {target: string}
type PluginShape = {commandsDir?: string; hooks?: Record<string, HookEntry[] | undefined>; name: string; pjson: {oclif?: {commands?: unknown}}; root: string}

/** `target` under `root`, as Node would find it: the path itself or with a module extension. */
function moduleFile(root: string, target: string): string | undefined {
  const base = join(root, target)
  return ['', '.js', '.cjs', '.mjs', '/index.js', '/index.cjs', '/index.mjs'].map((ext) => base + ext).find((file) => statSync(file, {throwIfNoEntry: false})?.isFile())
}

/** Every plugin's hook modules, in plugin order; each file once. */
export function hookModules(config: Config): string[] {
  const files = new Set<string>()
  for (const plugin of config.getPluginsList() as unknown as PluginShape[]) {
    for (const hooks of Object.values(plugin.hooks ?? {})) {
      for (const hook of hooks ?? []) {
        const file = moduleFile(plugin.root, typeof hook === 'string' ? hook : hook.target)
        if (file) files.add(file)
      }
    }
  }

  return [...files]
}

/**
 * The module a command's class is in: its manifest's relativePath, else the plugin's one commands module (oclif's
 * "explicit" strategy: `{strategy: 'explicit', target}`), else its file under the commands dir (older manifests).
 */
function commandModule(config: Config, id: string): string | undefined {
  const command = config.findCommand(id)
  if (!command) return undefined
  const plugin = (config.getPluginsList() as unknown as PluginShape[]).find((p) => p.name === command.pluginName)
  if (!plugin) return undefined
  const relative = (command as {relativePath?: string[]}).relativePath
  if (relative?.length) return moduleFile(plugin.root, join(...relative))
  const discovery = plugin.pjson.oclif?.commands as undefined | {strategy?: string; target?: string}
  if (discovery?.strategy === 'explicit' && discovery.target) return moduleFile(plugin.root, discovery.target)
  return plugin.commandsDir ? moduleFile(plugin.commandsDir, join(...id.split(':'))) : undefined
}

/** The modules of these commands, in the order given; each file once (one commands module serves many ids). */
export function commandModules(config: Config, ids: readonly string[]): string[] {
  const files = new Set<string>()
  for (const id of ids) {
    const file = commandModule(config, id)
    if (file) files.add(file)
  }

  return [...files]
}
